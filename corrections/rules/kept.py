"""How often a label the assistant put forward was kept: the one counting of the context's "kept"
lines and of the quality report (pure).

Per label L, over some first analyses (docs/quality.md): proposed = analyses that put L forward;
removed = of those, the ones where a person removed L; kept = proposed and not removed; added =
analyses where a person added L that the assistant had not put forward.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from corrections.rules.models import IssueCorrection


@dataclass(frozen=True)
class LabelNumbers:
    """The counts of one label (or of all labels together) in one month."""

    label: str
    proposed: int = 0
    kept: int = 0
    removed: int = 0
    added: int = 0

    @property
    def precision(self) -> float | None:
        """kept / proposed."""
        return self.kept / self.proposed if self.proposed else None

    @property
    def recall(self) -> float | None:
        """kept / (kept + added)."""
        return self.kept / (self.kept + self.added) if self.kept + self.added else None


def label_numbers(label: str, corrections: Iterable[IssueCorrection]) -> LabelNumbers:
    """The counts of one label over some first analyses, from the rules' trace (put forward, removed,
    added); nothing is decided here."""
    proposed = kept = removed = added = 0
    for correction in corrections:
        if label in correction.put_forward:
            proposed += 1
            if label in correction.labels_removed:
                removed += 1
            else:
                kept += 1
        if label in correction.labels_added:
            added += 1
    return LabelNumbers(label=label, proposed=proposed, kept=kept, removed=removed, added=added)
