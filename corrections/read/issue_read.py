"""One scanned issue as read so far, and the cap on how much of its timeline a run may read."""

from __future__ import annotations

from dataclasses import dataclass

from corrections.rules.issue import analyses
from corrections.rules.models import Analysis, Issue
from corrections.rules.settings import RuleSettings
from queries.page_sizes import FULL_PAGE

MAX_TIMELINE_PAGES = 10  # full pages of a timeline: 1,000 items per issue
MAX_TIMELINE_ITEMS = MAX_TIMELINE_PAGES * FULL_PAGE  # the same cap when pages were shrunk


@dataclass(frozen=True)
class IssueRead:
    """One scanned issue as read so far: its events, where its timeline continues, its first analysis."""

    issue: Issue
    cursor: str | None
    # Timeline items the pages read so far could hold (their page sizes added up).
    items_asked: int
    first: Analysis | None
    warnings: tuple[str, ...]  # analysis markers that do not parse

    @classmethod
    def of(cls, issue: Issue, cursor: str | None, items_asked: int, settings: RuleSettings) -> IssueRead:
        """The issue with its first analysis found in the timeline read so far."""
        found, warnings = analyses(issue, settings)
        first = next((a for a in found if a.kind == "first"), None)
        return cls(issue, cursor, items_asked, first, tuple(warnings))

    @property
    def can_continue(self) -> bool:
        """More timeline exists and the cap allows reading it."""
        return (
            not self.issue.timeline_complete
            and self.cursor is not None
            and self.items_asked < MAX_TIMELINE_ITEMS
        )

    @property
    def truncated(self) -> bool:
        """More timeline exists than the cap lets a run read."""
        return not self.issue.timeline_complete and not self.can_continue
