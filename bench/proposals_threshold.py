"""`python -m bench --proposals`: the sync's threshold (`--min-issues`) for proposing a recurring
decision as a learning, measured at 1 to 5 issues.

Two measurements, each through the product's own rule (corrections/quality/recurring.py) on the
corrections the product's rules found:

- **the loop** (bench/loop_graded.py, the busy rate, 16 weeks, the `following` stand-in, today's
  read with the horizon): a weekly sync reads the 100 most recent analyses (as `corrections sync`
  does) and proposes each decision made on at least N of them that it did not propose before
  (merged or refused, a decision is not proposed again). Figures: the proposals made, right
  (every issue behind it is of one topic of the loop's repository) or wrong, the week each was
  first proposed, and of the recurrences not given, how many came after a proposal of their own
  decision was merged (the learning stood in the prompt against them) or before it. The
  stand-ins do not read learnings, so the recurrences themselves do not move: the figure is
  how many of them a merged learning was in time for;
- **the wording worlds** (bench/wording_world.py, seeds 31 to 38, the 100 analyses a sync reads,
  as generated and with few corrections a kind):
  ten one-off corrections of random labels beside the seven recurring kinds, so a threshold can
  propose a decision that is no habit. A proposal is right when more than half of the issues
  behind it are of one recurring kind (a one-off may happen to get a kind's correction), wrong
  otherwise; and how many of the seven kinds were proposed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bench import loop_graded
from bench.loop_world import Arrival, arrivals
from bench.stand_ins import keywords
from corrections.quality.recurring import recurring_decisions
from corrections.quality.repeats import outcome_repeats
from corrections.read.horizon import HORIZON
from corrections.rules.models import IssueCorrection

THRESHOLDS = (1, 2, 3, 4, 5)
SYNC_READS = 100  # analyses `corrections sync` reads (corrections/commands/sync.py)
WORDING_SEEDS = tuple(range(31, 39))


def _topic(arrival: Arrival) -> str:
    return ",".join(sorted(keywords(arrival.title)))


def weekly_syncs(
    corrections: Mapping[int, IssueCorrection], found: Sequence[Arrival], minimum: int
) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Each decision a weekly sync proposed: the week of its first proposal, and its issues then."""
    proposed: dict[str, tuple[int, tuple[int, ...]]] = {}
    for week in range(1, max(a.week for a in found) + 1):
        read = [a.number for a in found if a.week <= week][-SYNC_READS:]
        corrected = [corrections[n] for n in read if corrections[n].is_corrected]
        for decision in recurring_decisions(corrected, minimum):
            proposed.setdefault(decision.decision, (week, decision.issues))
    return proposed


def loop(seed: int = 7, weeks: int = loop_graded.WEEKS) -> dict[str, Any]:
    """The busy loop's proposals and recurrences at each threshold."""
    found = arrivals(weeks, loop_graded.RATES["busy"], seed)
    everything, _ = loop_graded.lived("following", found, horizon=HORIZON)
    corrections = {c.number: c for c in everything.corrections}
    topic = {a.number: _topic(a) for a in found}
    week_of = {a.number: a.week for a in found}
    items = outcome_repeats(everything, loop_graded.SETTINGS, window=loop_graded.WINDOW, read_with=len(found))
    result: dict[str, Any] = {"issues": len(found), "per_week": loop_graded.RATES["busy"], "weeks": weeks}
    for minimum in THRESHOLDS:
        proposed = weekly_syncs(corrections, found, minimum)
        right = sum(len({topic[n] for n in issues}) == 1 for _, issues in proposed.values())
        covered = total = 0
        for item in items:
            if not item.not_given:
                continue
            mine = {d.decision for d in recurring_decisions([corrections[item.number]], 1)}
            merged = any(proposed[d][0] < week_of[item.number] for d in mine if d in proposed)
            total += len(item.not_given)
            covered += len(item.not_given) if merged else 0
        result[str(minimum)] = {
            "proposals": len(proposed),
            "right": right,
            "wrong": len(proposed) - right,
            "first_weeks": sorted(week for week, _ in proposed.values()),
            "recurrences_not_given": total,
            "after_the_merge": covered,
        }
    return result


def _majority(kinds: Sequence[str | None]) -> str | None:
    """The recurring kind more than half of a decision's issues are of, else None."""
    best = max(set(kinds), key=kinds.count)
    return best if best is not None and 2 * kinds.count(best) > len(kinds) else None


# The wording worlds as generated (eight or nine corrections a kind), and with few corrections a
# kind: a habit shown three to five times in 100 analyses, which a high threshold misses.
SHAPES = {"as generated": {}, "few a kind": {"per_kind": 4, "per_quiet_kind": 3}}


def wording(seeds: Sequence[int] = WORDING_SEEDS, shape: str = "as generated") -> dict[str, Any]:
    """The wording worlds' proposals at each threshold: right, wrong, kinds proposed."""
    from bench.nearest import read_world
    from bench.wording_world import WordingSpec, generate

    totals = {str(m): {"proposals": 0, "right": 0, "wrong": 0, "kinds": 0} for m in THRESHOLDS}
    for seed in seeds:
        generated = generate(WordingSpec(seed=seed, **SHAPES[shape]))
        corrected = read_world(generated.world, SYNC_READS).corrected
        for minimum in THRESHOLDS:
            found = recurring_decisions(corrected, minimum)
            majority = [_majority([generated.kind[n] for n in d.issues]) for d in found]
            row = totals[str(minimum)]
            row["proposals"] += len(found)
            row["right"] += sum(kind is not None for kind in majority)
            row["wrong"] += sum(kind is None for kind in majority)
            row["kinds"] += len({kind for kind in majority if kind is not None})
    return {"seeds": list(seeds), "shape": shape, "kinds_per_world": 7, **totals}


def study(seed: int = 7) -> dict[str, Any]:
    """Both measurements."""
    return {"loop": loop(seed), "wording": [wording(shape=shape) for shape in SHAPES]}


def table(result: Mapping[str, Any]) -> list[str]:
    """One row per threshold: the loop's figures, then the wording worlds'."""
    found = result["loop"]
    lines = [
        f"loop, busy ({found['per_week']} a week, {found['weeks']} weeks, following, horizon): weekly syncs",
        f"  {'N':>3}{'proposals':>11}{'right':>7}{'wrong':>7}{'first weeks':>26}{'not given':>11}{'after merge':>13}",
    ]
    for minimum in THRESHOLDS:
        row = found[str(minimum)]
        weeks = ",".join(str(week) for week in row["first_weeks"])
        lines.append(
            f"  {minimum:>3}{row['proposals']:>11}{row['right']:>7}{row['wrong']:>7}{weeks:>26}"
            f"{row['recurrences_not_given']:>11}{row['after_the_merge']:>13}"
        )
    for worded in result["wording"]:
        seeds = len(worded["seeds"])
        lines.append(
            f"wording worlds, {worded['shape']} ({seeds} seeds, the 100 analyses a sync reads, "
            "7 recurring kinds and 10 one-offs)"
        )
        lines.append(f"  {'N':>3}{'proposals':>11}{'right':>7}{'wrong':>7}{'kinds proposed':>16}")
        for minimum in THRESHOLDS:
            row = worded[str(minimum)]
            lines.append(
                f"  {minimum:>3}{row['proposals']:>11}{row['right']:>7}{row['wrong']:>7}"
                f"{row['kinds']:>10} of {7 * seeds}"
            )
    return lines


def run(as_json: bool, seed: int = 7) -> int:
    """`python -m bench --proposals`: print the study."""
    result = study(seed)
    print(json.dumps(result, indent=2) if as_json else "\n".join(table(result)))
    return 0
