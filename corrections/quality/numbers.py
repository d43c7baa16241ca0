"""Monthly quality numbers of the assistant's first analyses, from the same rules as the context (pure).

Every number comes from the IssueCorrection the reader summed up from the rules' trace
(`rules.issue.trace`): what maintainers see measured is what the assistant learns from, and nothing is
decided again here. Definitions (docs/quality.md), per vocabulary label L and month:

- proposed: first analyses that put L forward (its marker named L, or the assistant applied L,
  unless a person added L before the assistant did: then L is "added");
- removed: of those, the ones where a person removed L (the `removed` correction);
- kept: proposed and not removed;
- added: first analyses where a person added L that the assistant had not put forward;
- precision = kept / proposed; recall = kept / (kept + added); None when the divisor is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from corrections.read.outcome import ReadOutcome
from corrections.rules.labels import LabelNumbers, label_numbers
from corrections.rules.models import DuplicateOutcome, IssueCorrection, Objector
from corrections.rules.settings import RuleSettings


@dataclass(frozen=True)
class AnalyzedIssue:
    """One issue's first analysis and what the rules found on it."""

    number: int
    month: str  # YYYY-MM of the first analysis, UTC
    correction: IssueCorrection


def per_100(part: int, analyses: int) -> float | None:
    """`part` per 100 analyses; None without analyses."""
    return 100 * part / analyses if analyses else None


@dataclass(frozen=True)
class RecurrenceNumbers:
    """Some first analyses' recurrences (corrections/quality/recurrences.py): their correcting
    decisions, the decisions that recurred from a similar earlier issue given or not given to the
    model, and the analyses nobody corrected (reported apart: silence is not approval)."""

    analyses: int = 0
    corrections: int = 0
    given: int = 0
    not_given: int = 0
    uncorrected: int = 0
    # Analyses whose context was reconstructed from a read that did not reach back far enough.
    contexts_partial: int = 0

    def __add__(self, other: RecurrenceNumbers) -> RecurrenceNumbers:
        return RecurrenceNumbers(
            analyses=self.analyses + other.analyses,
            corrections=self.corrections + other.corrections,
            given=self.given + other.given,
            not_given=self.not_given + other.not_given,
            uncorrected=self.uncorrected + other.uncorrected,
            contexts_partial=self.contexts_partial + other.contexts_partial,
        )

    @property
    def recurrences(self) -> int:
        """given + not given."""
        return self.given + self.not_given

    @property
    def rate(self) -> float | None:
        """The repeat rate, given / corrections (shown beside, never as the headline: it falls when
        corrections rise, so a careless model can score well)."""
        return self.given / self.corrections if self.corrections else None


@dataclass(frozen=True)
class SecondLookNumbers:
    """What the second look (`corrections answer`) changed in some first analyses, as their markers
    record it: the analyses it changed, the duplicate notices and the labels it left out."""

    analyses: int = 0
    duplicates: int = 0
    labels: int = 0


@dataclass(frozen=True)
class MonthQuality:
    """The numbers of one month."""

    month: str
    complete: bool
    analyses: int
    corrected: int
    labels: tuple[LabelNumbers, ...]
    all_labels: LabelNumbers
    duplicates_confirmed: int
    duplicates_objected: int
    duplicates_open: int
    # Of the objected: those only someone without triage access objected to (the rest a maintainer).
    duplicates_objected_by_other: int
    thumbs_down: int  # counted 👎 (people with push access), all analyses of the month
    thumbs_down_analyses: int  # analyses with at least one counted 👎
    recurrences: RecurrenceNumbers = RecurrenceNumbers()  # filled by corrections/quality/repeats.py
    receipts: int = 0  # first analyses whose marker has a receipt
    second_look: SecondLookNumbers = SecondLookNumbers()  # filled by corrections/quality/repeats.py
    # The last analysis whose context was rebuilt in part (`recurrences.contexts_partial`): every
    # analysis of the month made after it had its whole context; None when none was partial.
    contexts_whole_after: datetime | None = None
    # A partial month covers the first analyses of the issues active after this moment (the
    # read's bound); the month's analyses on issues last active before it are not counted; its
    # recurrences and receipts come from the same read and cover the same part.
    covers_after: datetime | None = None


@dataclass(frozen=True)
class MonthRead:
    """How a read of one month went (`--month`): every issue active since the month began, newest
    activity first, within a points budget; `budget_ended`: the budget ended it before that."""

    month: str
    budget: int
    spent: int
    budget_ended: bool


@dataclass(frozen=True)
class QualityReport:
    """Every month read, oldest first, and how far the read reached."""

    repository: str
    months: tuple[MonthQuality, ...]
    complete_after: datetime | None  # every issue active after this was read; None: all were read
    note: str | None
    month_read: MonthRead | None = None  # `--month`: the read of that month (else a window's)

    def proposed_labels(self) -> list[str]:
        """Every label proposed in some month, in the order first met (the table's and chart's rows)."""
        seen: list[str] = []
        for month in self.months:
            for numbers in month.labels:
                if numbers.proposed and numbers.label not in seen:
                    seen.append(numbers.label)
        return seen


def month_of(moment: datetime) -> str:
    """YYYY-MM in UTC."""
    return moment.astimezone(UTC).strftime("%Y-%m")


def month_start(month: str) -> datetime:
    """The first instant of a YYYY-MM month, UTC."""
    return datetime.strptime(month, "%Y-%m").replace(tzinfo=UTC)


def analyzed_issues(outcome: ReadOutcome, settings: RuleSettings) -> list[AnalyzedIssue]:
    """The window's issues with their corrections (the job computed them with the rules)."""
    by_number = {c.number: c for c in outcome.corrections}
    found: list[AnalyzedIssue] = []
    for read in outcome.window:
        if read.first is None or read.issue.number not in by_number:
            continue
        found.append(
            AnalyzedIssue(
                number=read.issue.number,
                month=month_of(read.first.at),
                correction=by_number[read.issue.number],
            )
        )
    return found


def _total(numbers: Sequence[LabelNumbers]) -> LabelNumbers:
    return LabelNumbers(
        label="all labels",
        proposed=sum(n.proposed for n in numbers),
        kept=sum(n.kept for n in numbers),
        removed=sum(n.removed for n in numbers),
        added=sum(n.added for n in numbers),
    )


def month_quality(
    month: str,
    items: Sequence[AnalyzedIssue],
    vocabulary: Sequence[str],
    *,
    complete: bool,
    covers_after: datetime | None = None,
) -> MonthQuality:
    """The numbers of one month; labels in vocabulary order, those with any count only."""
    mine = [item for item in items if item.month == month]
    numbers = [label_numbers(label, [item.correction for item in mine]) for label in vocabulary]
    numbers = [n for n in numbers if n.proposed or n.added]
    outcomes = [item.correction.duplicate.outcome for item in mine if item.correction.duplicate is not None]
    return MonthQuality(
        month=month,
        complete=complete,
        analyses=len(mine),
        corrected=sum(1 for item in mine if item.correction.is_corrected),
        labels=tuple(numbers),
        all_labels=_total(numbers),
        duplicates_confirmed=outcomes.count(DuplicateOutcome.CONFIRMED),
        duplicates_objected=outcomes.count(DuplicateOutcome.OBJECTED),
        duplicates_open=outcomes.count(DuplicateOutcome.OPEN),
        duplicates_objected_by_other=sum(
            1
            for item in mine
            if (objection := item.correction.objection) is not None and objection.by is Objector.OTHER
        ),
        thumbs_down=sum(item.correction.thumbs_down for item in mine),
        thumbs_down_analyses=sum(1 for item in mine if item.correction.thumbs_down),
        covers_after=None if complete else covers_after,
    )


def complete_after(outcome: ReadOutcome, max_analyzed: int) -> datetime | None:
    """Every issue whose last activity is after this moment was read; None when all issues were.

    The scan reads issues by newest activity: it stops when the window is full (then the last
    issue of the window marks the edge) or at its page bound (then the last issue scanned does).
    """
    if len(outcome.window) >= max_analyzed and outcome.window:
        return outcome.window[-1].issue.updated_at
    if outcome.scan_exhausted:
        return None
    return outcome.scanned_through


def quality_report(
    outcome: ReadOutcome, settings: RuleSettings, max_analyzed: int, month_read: MonthRead | None = None
) -> QualityReport:
    """Every month with a first analysis among the issues read (`max_analyzed`: the read's window).

    A month is complete when every issue active since its first day was read: an issue with a
    first analysis in that month has been active since, so none of them can be missing.
    """
    items = analyzed_issues(outcome, settings)
    edge = complete_after(outcome, max_analyzed)
    vocabulary = [
        name
        for name in outcome.vocabulary.names
        if name.casefold() != settings.duplicate_label.strip().casefold()
    ]
    months = sorted({item.month for item in items})
    return QualityReport(
        repository=outcome.repository,
        months=tuple(
            month_quality(
                month,
                items,
                vocabulary,
                complete=edge is None or edge < month_start(month),
                covers_after=edge,
            )
            for month in months
        ),
        complete_after=edge,
        note=outcome.status.note,
        month_read=month_read,
    )
