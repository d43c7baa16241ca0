"""The wording study of `python -m bench.nearest`: is the line that teaches a new issue's kind near
the top, however the new issue is worded, for each ranker of bench/rankers.py?

The lines are the corrections the real reader finds in the world of bench/wording_world.py
(served by the emulator): the default window (the 30 most recently active analyses) and the
widest (100, the whole 12 weeks). Each new issue of bench/wording_texts.py is ranked against
them with `corrections.render.nearest.nearest_first` (the product's ordering: stable, so equal
scores stay newest first), once per ranker. The figure is the rank of the first line of its kind:
recall@1/3/5 (the share of new issues with such a line in the first 1/3/5) and MRR (the mean of
1/rank; 0 when no line of its kind is in the window), per wording and over all.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bench.rankers import Scorer, candidates
from bench.wording_texts import WORDINGS
from bench.wording_world import NewIssue, WordingSpec, generate, new_issues
from corrections.read.outcome import ReadOutcome
from corrections.render.nearest import issue_text, nearest_first

WINDOWS = {"default window (30)": 30, "widest window (100)": 100}


def ranks(
    outcome: ReadOutcome, kind: Mapping[int, str | None], asked: Sequence[NewIssue], scorer: Scorer
) -> list[int | None]:
    """For each new issue, the 1-based rank of the first line of its kind (None: no such line)."""
    lines = outcome.corrected  # newest first, as the reader gives them
    texts = {read.issue.number: issue_text(read.issue.title, read.issue.body) for read in outcome.read_issues}
    found: list[int | None] = []
    for new in asked:
        ranked = nearest_first(lines, texts, issue_text(new.title, new.body), scorer)
        found.append(
            next((place for place, line in enumerate(ranked, 1) if kind[line.number] == new.kind), None)
        )
    return found


def figures(found: Sequence[int | None]) -> dict[str, Any]:
    """recall@1/3/5 and MRR of some ranks, and how many they are."""
    return {
        "n": len(found),
        **{
            f"recall@{k}": round(sum(r is not None and r <= k for r in found) / len(found), 3)
            for k in (1, 3, 5)
        },
        "mrr": round(statistics.fmean(1 / r if r else 0.0 for r in found), 3),
    }


def by_wording(asked: Sequence[NewIssue], found: Sequence[int | None]) -> dict[str, Any]:
    """The figures over all new issues, then per wording and per kind."""
    table: dict[str, Any] = {"all": figures(found)}
    for wording in WORDINGS:
        table[wording] = figures([r for new, r in zip(asked, found, strict=True) if new.wording == wording])
    for kind in sorted({new.kind for new in asked}):
        table[f"kind:{kind}"] = figures([r for new, r in zip(asked, found, strict=True) if new.kind == kind])
    return table


def study(
    worlds: Sequence[tuple[WordingSpec, Mapping[str, ReadOutcome]]],
    embedding: bool = False,
    only: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Every ranker (or those named in `only`) on every window, over the new issues of every world
    (each world's outcome per window name): the figures, and the milliseconds one ranking takes."""
    asked = new_issues()
    kinds = [generate(spec).kind for spec, _ in worlds]
    rankers = {name: scorer for name, scorer in candidates(embedding).items() if only is None or name in only}
    result: dict[str, Any] = {
        "seeds": [spec.seed for spec, _ in worlds],
        "new_issues": len(asked) * len(worlds),
        "windows": {},
    }
    for window in WINDOWS:
        found_by: dict[str, Any] = {}
        for name, scorer in rankers.items():
            start = time.perf_counter()
            found = [
                r
                for (_, outcomes), kind in zip(worlds, kinds, strict=True)
                for r in ranks(outcomes[window], kind, asked, scorer)
            ]
            elapsed = (time.perf_counter() - start) * 1000 / len(found)
            found_by[name] = {"ms_per_ranking": round(elapsed, 2), **by_wording(asked * len(worlds), found)}
        lines = [len(outcomes[window].corrected) for _, outcomes in worlds]
        result["windows"][window] = {"lines": round(statistics.fmean(lines), 1), "rankers": found_by}
    return result


def table(result: Mapping[str, Any]) -> list[str]:
    """recall@3 per wording and ranker, then recall@1/3/5 and MRR over all, for each window."""
    seeds = ", ".join(str(seed) for seed in result["seeds"])
    lines = [f"wording worlds (seeds {seeds}): {result['new_issues']} new issues"]
    for window, found in result["windows"].items():
        rankers = found["rankers"]
        lines.append(f"{window}: {found['lines']} lines; recall@3 per wording")
        lines.append("  " + f"{'ranker':18}" + "".join(f"{w:>11}" for w in WORDINGS))
        lines.extend(
            "  " + f"{name:18}" + "".join(f"{figures_[w]['recall@3']:>11.0%}" for w in WORDINGS)
            for name, figures_ in rankers.items()
        )
        lines.append(
            f"  {'ranker':18}{'recall@1':>10}{'recall@3':>10}{'recall@5':>10}{'MRR':>8}{'ms/rank':>9}"
        )
        for name, figures_ in rankers.items():
            every = figures_["all"]
            lines.append(
                f"  {name:18}{every['recall@1']:>10.0%}{every['recall@3']:>10.0%}{every['recall@5']:>10.0%}"
                f"{every['mrr']:>8.3f}{figures_['ms_per_ranking']:>9.1f}"
            )
    return lines
