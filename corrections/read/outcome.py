"""What one run of the reader produced, for the renderers, the step summary and the quality numbers.

Plain values: the renderers import this, not the job that does the round trips, so rendering never
loads the network stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from assistant.config import Config
from corrections.read import notes
from corrections.read.analysed import AnalysedIssue
from corrections.read.issue_read import IssueRead
from corrections.rules.models import IssueCorrection, Permission, Reaction
from corrections.rules.vocabulary import Vocabulary
from learnings.store import LoadedLearnings
from queries.page_sizes import PageSizes
from queries.usage import Usage

_NO_DATE = datetime.min.replace(tzinfo=UTC)


@dataclass
class ReadOutcome:
    """Everything a run produced, for the renderers."""

    repository: str
    config: Config = field(default_factory=Config)  # the configuration in force (the base's, in the action)
    window: list[IssueRead] = field(default_factory=list)
    corrections: list[IssueCorrection] = field(default_factory=list)
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    learnings: LoadedLearnings | None = None
    stale_learnings: frozenset[str] = frozenset()
    warnings: list[str] = field(default_factory=list)
    note: str | None = None
    # Parts that could not be read (keys of notes.PARTS); the note names them.
    missing: set[notes.Part] = field(default_factory=set)
    off: bool = False
    failed: bool = False
    # When nothing could be read: the category of GitHub's failure, or notes.INTERNAL (the reader's).
    failure: str | None = None
    usage: Usage = field(default_factory=Usage)
    # How far the scan got: it read every issue, or every issue updated at or after `scanned_through`.
    scan_exhausted: bool = False
    scanned_through: datetime | None = None
    # A read back to a moment (ReadRequest.since) whose points budget ended the scan before it.
    budget_ended: bool = False
    # The page sizes the run ended with: smaller than full pages when GitHub could not answer.
    page_sizes: PageSizes = field(default_factory=PageSizes)
    # The issue being analysed: never one of the corrections, and the one they are ranked against.
    analysed: AnalysedIssue | None = None
    # What the rules read beside the timelines: the 👎 on each first analysis (by its node id) and
    # the permissions looked up (by normalized login), so a context as of a past moment
    # (corrections/quality/as_of.py) runs the same rules on the same answers.
    reactions: dict[str, list[Reaction]] = field(default_factory=dict)
    permissions: dict[str, Permission] = field(default_factory=dict)
    # Set on a context as of a past moment: events after it were left out.
    as_of: datetime | None = None

    @property
    def github_failed(self) -> bool:
        """Whether GitHub failed the read, wholly or in part (an internal error is not GitHub's)."""
        return (self.failed and self.failure != notes.INTERNAL) or bool(self.missing)

    @property
    def learned_from(self) -> list[IssueCorrection]:
        """The window's analyses the context learns from: all but the issue being analysed."""
        number = None if self.analysed is None else self.analysed.number
        return [c for c in self.corrections if c.number != number]

    @property
    def corrected(self) -> list[IssueCorrection]:
        """Corrected issues of the window (the analysed one aside), latest correction first.

        Ties (and corrections whose date is unknown) keep the window's order, newest activity first.
        """
        corrected = [c for c in self.learned_from if c.is_corrected]
        return sorted(corrected, key=lambda c: c.corrected_at or _NO_DATE, reverse=True)
