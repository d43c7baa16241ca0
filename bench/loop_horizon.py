"""`python -m bench --loop-horizon`: recurrences not given, before the horizon and after, over 16 weeks.

The loop of bench/loop_graded.py (the loop's repository, in process: each arrival answered by a
stand-in from the corrections.md a read would give just before it, corrected an hour later by the
scripted maintainer, then counted by the product's own measure, corrections/quality/repeats.py)
at the busy rate (36 issues a week: the window of 30 holds less than a week) and the quiet one
(6 a week), each for 16 weeks, in three products:

- **before** (the product before issue 31): the corrections of the window of 30 alone. The
  stand-ins read only correction lines, and the corrections.md of before issue 31 had neither the
  analyses maintainers kept nor the labels' meanings, so for them before is the window alone;
- **window, kept**: today's corrections.md (kept analyses, label meanings, collapsed lines) with
  the horizon taken out: what the kept analyses alone do;
- **after** (today's default): the window of 30 and the horizon past it up to HORIZON (200)
  first analyses (every issue of the loop is analysed: the window's scan page holds 100, the
  horizon's one page more the next 100).

Two stand-ins (bench/stand_ins.py): `following` (heeds the similar correction lines only) and
`heeding` (heeds also the similar analyses maintainers kept). Before issue 31 no kept analysis was
shown, so `heeding` then answered as `following`: its before is following's. The goal (issue 31):
at the busy rate, recurrences not given after at most a quarter of before's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bench import loop_graded
from bench.loop_world import arrivals
from corrections.read.horizon import HORIZON

STAND_INS = ("following", "heeding")
# Product name -> the horizon the read takes past the window (0: none).
PRODUCTS = {"before": 0, "window, kept": 0, "after": HORIZON}
QUARTER = 0.25


def _totals(weeks: Sequence[loop_graded.Week]) -> dict[str, int]:
    return {
        "analyses": sum(w.analyses for w in weeks),
        "corrections": sum(w.corrections for w in weeks),
        "given": sum(w.given for w in weeks),
        "not_given": sum(w.not_given for w in weeks),
    }


def rate(per_week: int, weeks: int = loop_graded.WEEKS, seed: int = 7) -> dict[str, Any]:
    """The three products for both stand-ins at one rate (before: `following` alone, see above)."""
    found = arrivals(weeks, per_week, seed)
    before = _totals(loop_graded.live("following", found))
    result: dict[str, Any] = {"per_week": per_week, "weeks": weeks, "issues": len(found), "before": before}
    for model in STAND_INS:
        result[model] = {
            "window, kept": _totals(loop_graded.live(model, found, horizon=0)),
            "after": _totals(loop_graded.live(model, found, horizon=PRODUCTS["after"])),
        }
    return result


def study(weeks: int = loop_graded.WEEKS, seed: int = 7) -> dict[str, Any]:
    """Both rates, and the goal at the busy one."""
    found = {name: rate(per_week, weeks, seed) for name, per_week in loop_graded.RATES.items()}
    return {"rates": found, "goals": goals(found)}


def goals(found: Mapping[str, Any]) -> dict[str, bool]:
    """At the busy rate, after's recurrences not given at most a quarter of before's, per stand-in."""
    busy = found["busy"]
    limit = QUARTER * busy["before"]["not_given"]
    return {
        f"busy, {model}: not given after <= a quarter of before's ({limit:g})": busy[model]["after"][
            "not_given"
        ]
        <= limit
        for model in STAND_INS
    }


def table(result: Mapping[str, Any]) -> list[str]:
    """One row per rate, product and stand-in: corrections, given, not given, share of before."""
    lines = [
        f"  {'rate':7}{'product':14}{'stand-in':11}{'issues':>7}{'corrections':>13}{'given':>7}{'not given':>11}{'of before':>11}"
    ]
    for name, found in result["rates"].items():
        before = found["before"]
        rows = [("before", "both", before)] + [
            (product, model, found[model][product])
            for product in ("window, kept", "after")
            for model in STAND_INS
        ]
        for product, model, totals in rows:
            share = totals["not_given"] / before["not_given"] if before["not_given"] else 0.0
            lines.append(
                f"  {name:7}{product:14}{model:11}{found['issues']:>7}{totals['corrections']:>13}"
                f"{totals['given']:>7}{totals['not_given']:>11}{share:>11.0%}"
            )
    lines.extend(f"  {'met' if ok else 'MISSED'}: {goal}" for goal, ok in result["goals"].items())
    return lines


def run(as_json: bool, seed: int = 7) -> int:
    """`python -m bench --loop-horizon`: print the study; exit 1 when a goal is missed."""
    import json

    result = study(seed=seed)
    print(json.dumps(result, indent=2) if as_json else "\n".join(table(result)))
    return 0 if all(result["goals"].values()) else 1
