"""The decisions maintainers made again and again, read from the corrections (the sync proposes each
as a learning, learnings.sync.recurring).

The same decision is the same correction by the product's one rule of corrections (the read's
IssueCorrection): the same labels removed and added on an issue, or an objection to a duplicate
notice pointing at the same issue. A decision counts when maintainers made it on at least
`minimum` issues (MINIMUM unless told): corrections by people without triage access (an objection
only they made) are not theirs. Pure: corrections in, decisions out, most issues first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from assistant.untrusted import inline_code
from corrections.rules.models import IssueCorrection


@dataclass(frozen=True)
class Decision:
    """One decision in fixed words around label names and numbers, and the issues it was made on,
    newest number first (the sync proposes it as a learning: learnings.sync.recurring.Recurring)."""

    decision: str
    issues: tuple[int, ...]


# At least three times, by measurement (`python -m bench --proposals`, docs/learnings.md): on the
# wording worlds' 100 analyses, twice proposes decisions that are no habit (5 of 61 proposals, 7 of
# 63 with few corrections a kind), three times 1 of 57 and 0 of 56 with every recurring kind still
# proposed; four or five times miss the kinds corrected three or four times (6 and 15 of 56).
MINIMUM = 3


def _labels(names: Iterable[str]) -> str:
    return ", ".join(inline_code(name) for name in sorted(names))


def _decisions(correction: IssueCorrection) -> list[str]:
    """The decisions one corrected issue shows, each in fixed words around label names and numbers."""
    found = []
    removed, added = correction.labels_removed, correction.labels_added
    if correction.by_maintainer and (removed or added):
        if removed and added:
            found.append(f"label such issues {_labels(added)}, not {_labels(removed)}")
        elif added:
            found.append(f"such issues also need {_labels(added)}")
        else:
            found.append(f"do not label such issues {_labels(removed)}")
    objection = correction.objection
    if objection is not None and correction.by_maintainer:
        found.append(f"such issues are not duplicates of #{objection.of}")
    return found


def recurring_decisions(corrections: Iterable[IssueCorrection], minimum: int = MINIMUM) -> list[Decision]:
    """The decisions made on at least `minimum` issues, each with its issues (newest number first)."""
    issues: dict[str, set[int]] = {}
    for correction in corrections:
        for decision in _decisions(correction):
            issues.setdefault(decision, set()).add(correction.number)
    found = [
        Decision(decision, tuple(sorted(numbers, reverse=True)))
        for decision, numbers in issues.items()
        if len(numbers) >= max(1, minimum)
    ]
    return sorted(found, key=lambda recurring: (-len(recurring.issues), recurring.decision))
