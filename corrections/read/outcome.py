"""What one run of the reader produced, for the renderers, the step summary and the quality numbers.

Plain frozen values, built once when the read ends (`Draft` collects on the way): the renderers
import this, not the job that does the round trips, so rendering never loads the network stack.
The run's status is one of four cases (corrections/read/status.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from assistant.config import Config
from corrections.read.analysed import AnalysedIssue
from corrections.read.issue_read import IssueRead
from corrections.read.status import Complete, Failed, Off, Status
from corrections.rules.models import Issue, IssueCorrection, Permission, Reaction
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import Vocabulary
from learnings.store.jsonl import LoadedLearnings
from queries.page_sizes import PageSizes
from queries.usage import Usage

_NO_DATE = datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True)
class ReadOutcome:
    """Everything a run produced, for the renderers."""

    repository: str
    status: Status = field(default_factory=Complete)
    config: Config = field(default_factory=Config)  # the configuration in force (the base's, in the action)
    # The rules' settings in force, built once a run from the configuration and labels.md.
    settings: RuleSettings = field(default_factory=RuleSettings)
    window: tuple[IssueRead, ...] = ()
    corrections: tuple[IssueCorrection, ...] = ()
    # The horizon past the window (corrections/read/reading.py, HORIZON): its corrected issues as
    # read, and their corrections, older lessons ranked beside the window's.
    horizon: tuple[IssueRead, ...] = ()
    carried: tuple[IssueCorrection, ...] = ()
    learnings: LoadedLearnings | None = None
    stale_learnings: frozenset[str] = frozenset()
    warnings: tuple[str, ...] = ()
    usage: Usage = field(default_factory=Usage)
    # How far the scan got: it read every issue, or every issue updated at or after `scanned_through`.
    scan_exhausted: bool = False
    scanned_through: datetime | None = None
    # A read back to a moment (ReadOptions.since) whose points budget ended the scan before it.
    budget_ended: bool = False
    # The page sizes the run ended with: smaller than full pages when GitHub could not answer.
    page_sizes: PageSizes = field(default_factory=PageSizes)
    # The issue being analysed: never one of the corrections, and the one they are ranked against.
    analysed: AnalysedIssue | None = None
    # What the rules read beside the timelines: the 👎 on each first analysis (by its node id) and
    # the permissions looked up (by normalized login), so a context as of a past moment
    # (corrections/quality/as_of.py) runs the same rules on the same answers.
    reactions: Mapping[str, Sequence[Reaction]] = field(default_factory=dict)
    permissions: Mapping[str, Permission] = field(default_factory=dict)
    # Set on a context as of a past moment: events after it were left out.
    as_of: datetime | None = None
    # Scanned issues a person put a label of labels.md on, newest activity first: the kept
    # examples' candidates (corrections/rules/kept_examples.py decides on each as it stands).
    labelled: tuple[Issue, ...] = ()

    @property
    def vocabulary(self) -> Vocabulary:
        """The labels that are corrections (labels.md at the base ref)."""
        return self.settings.vocabulary

    @property
    def learned_from(self) -> list[IssueCorrection]:
        """The window's analyses the context learns from: all but the issue being analysed."""
        number = None if self.analysed is None else self.analysed.number
        return [c for c in self.corrections if c.number != number]

    @property
    def corrected(self) -> list[IssueCorrection]:
        """Corrected issues of the window and of the horizon past it (the analysed one aside),
        latest correction first.

        Ties (and corrections whose date is unknown) keep the read's order, newest activity first.
        """
        number = None if self.analysed is None else self.analysed.number
        carried = [c for c in self.carried if c.number != number]
        corrected = [c for c in [*self.learned_from, *carried] if c.is_corrected]
        return sorted(corrected, key=lambda c: c.corrected_at or _NO_DATE, reverse=True)

    @property
    def read_issues(self) -> tuple[IssueRead, ...]:
        """The window's issues, then the horizon's corrected ones past it."""
        return (*self.window, *self.horizon)

    def with_warnings(self, warnings: Iterable[str]) -> ReadOutcome:
        """The outcome with more warnings after its own (those of writing the context folder)."""
        return replace(self, warnings=(*self.warnings, *warnings))


class Draft:
    """What a read has found so far; `off`, `failed` and `done` end it with the frozen outcome.

    The state is private and changes only through the methods, each one step of the read.
    """

    def __init__(self, repository: str, config: Config, usage: Usage, analysed: AnalysedIssue | None) -> None:
        self._repository = repository
        self._config = config
        self._usage = usage
        self._analysed = analysed
        self._settings: RuleSettings | None = None  # built once, from the base branch's files
        self._learnings: LoadedLearnings | None = None
        self._warnings: list[str] = []
        self._sizes = PageSizes()

    def warn(self, warning: str) -> None:
        """A warning the outputs show."""
        self._warnings.append(warning)

    def use_sizes(self, sizes: PageSizes) -> None:
        """The page sizes the first page ended with (smaller after GitHub could not answer)."""
        self._sizes = sizes

    def found_analysed(self, analysed: AnalysedIssue) -> None:
        """The issue being analysed, its text read with the first page."""
        self._analysed = analysed

    def use_config(self, config: Config, warnings: Iterable[str]) -> None:
        """The configuration in force (the base branch's, in the action), read with the first page."""
        self._config = config
        self._warnings.extend(warnings)

    def use_base(
        self, settings: RuleSettings, learnings: LoadedLearnings | None, warnings: Iterable[str]
    ) -> None:
        """The rules' settings and the learnings, from the base branch's files."""
        self._settings, self._learnings = settings, learnings
        self._warnings.extend(warnings)

    def off(self, note: str) -> ReadOutcome:
        """Reading is turned off: the outcome without a window."""
        return self.done(Off(note))

    def failed(self, failure: str, note: str) -> ReadOutcome:
        """Nothing usable was read: the outcome without a window."""
        return self.done(Failed(failure, note))

    def done(
        self,
        status: Status,
        *,
        window: tuple[IssueRead, ...] = (),
        corrections: tuple[IssueCorrection, ...] = (),
        horizon: tuple[IssueRead, ...] = (),
        carried: tuple[IssueCorrection, ...] = (),
        reactions: Mapping[str, Sequence[Reaction]] | None = None,
        permissions: Mapping[str, Permission] | None = None,
        stale_learnings: frozenset[str] = frozenset(),
        sizes: PageSizes | None = None,
        scan_exhausted: bool = False,
        scanned_through: datetime | None = None,
        budget_ended: bool = False,
        labelled: tuple[Issue, ...] = (),
    ) -> ReadOutcome:
        """The read ended: its status and what it read (the window, the rules' answers, how far
        the scan got); the outcome, built once."""
        return ReadOutcome(
            repository=self._repository,
            status=status,
            config=self._config,
            # A read that stopped before the base branch's files: the settings of its configuration.
            settings=self._settings or RuleSettings.from_config(self._config),
            window=window,
            corrections=corrections,
            horizon=horizon,
            carried=carried,
            learnings=self._learnings,
            stale_learnings=stale_learnings,
            warnings=tuple(self._warnings),
            usage=self._usage,
            scan_exhausted=scan_exhausted,
            scanned_through=scanned_through,
            budget_ended=budget_ended,
            page_sizes=sizes or self._sizes,
            analysed=self._analysed,
            reactions=reactions or {},
            permissions=permissions or {},
            labelled=labelled,
        )
