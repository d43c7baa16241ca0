"""Recurrences per first analysis and per month: what B's model was given, and which of B's
corrections came back from a similar earlier issue (pure).

B's context is its receipt when its marker has one (the issues named there, their lines as they
stood when B was written); otherwise the context a read just before B would have given
(corrections/quality/as_of.py). Which decisions recur, given or not given, is
corrections/quality/recurrences.py's rule. Both come from the one read and the rules' own
corrections (IssueCorrection): nothing is decided again here.

Counted per analysis: its `corrections` (decisions: each removed label, each added label, an
objected duplicate notice; a 👎 is no decision that can come back), its recurrences given and not
given, and whether nobody corrected it (`uncorrected`: reported apart, never read as approval).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from corrections.quality.as_of import correct_as_of, outcome_as_of, read_as_of
from corrections.quality.numbers import (
    QualityReport,
    RecurrenceNumbers,
    SecondLookNumbers,
    complete_after,
    month_of,
)
from corrections.quality.recurrences import (
    Decision,
    Recurrence,
    decisions,
    nearest_shown,
    recurrences,
    similar_to,
)
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.rules.analysis_marker import LeftOut
from corrections.rules.models import IssueCorrection
from corrections.rules.settings import RuleSettings

__all__ = ["AnalysisRepeats", "Decision", "Recurrence", "decisions"]


@dataclass(frozen=True)
class AnalysisRepeats:
    """One first analysis B: its decisions, what its context gave, and which of them recurred."""

    number: int
    at: datetime
    receipt: bool  # B's context is its receipt (else reconstructed)
    # Reconstructed from a read that did not reach back far enough to know B's whole window.
    context_partial: bool
    corrected: bool  # maintainers corrected B (a decision or a counted 👎)
    corrections: tuple[Decision, ...]
    context: tuple[IssueCorrection, ...]  # the lines B was given, as they stood when B was written
    recurrences: tuple[Recurrence, ...]
    left_out: tuple[LeftOut, ...] = ()  # what the second look left out of B's draft (its marker)

    @property
    def given(self) -> tuple[Recurrence, ...]:
        """The recurrences whose similar earlier correction B's model had been given."""
        return tuple(r for r in self.recurrences if r.given)

    @property
    def not_given(self) -> tuple[Recurrence, ...]:
        """The recurrences whose similar earlier corrections B's model was not given."""
        return tuple(r for r in self.recurrences if not r.given)

    @property
    def numbers(self) -> RecurrenceNumbers:
        """The counts quality.json gives."""
        return RecurrenceNumbers(
            analyses=1,
            corrections=len(self.corrections),
            given=len(self.given),
            not_given=len(self.not_given),
            uncorrected=0 if self.corrected else 1,
            contexts_partial=1 if self.context_partial else 0,
        )


def context_lines(
    outcome: ReadOutcome,
    read: IssueRead,
    settings: RuleSettings,
    *,
    window: int,
    read_back_to: datetime | None,
) -> tuple[bool, tuple[IssueCorrection, ...], bool]:
    """The correction lines B's model was given, whether they come from its receipt, and whether
    they were reconstructed in part (the read did not reach back far enough)."""
    first = read.first
    assert first is not None
    moment = first.at
    if first.receipt is not None:
        by_number = {r.issue.number: r for r in outcome.window}
        lines = []
        unread = False
        for number in first.receipt.corrections:
            other = by_number.get(number)
            if other is None or number == read.issue.number or other.first is None:
                unread = unread or (other is None and number != read.issue.number)
                continue  # not read today: its line cannot be known
            then = read_as_of(other, moment, settings)
            if then is None:
                continue
            line = correct_as_of(then, moment, outcome, settings)
            if line.is_corrected:
                lines.append(line)
        return True, tuple(lines), unread
    past = outcome_as_of(outcome, moment, max_analyzed=window, settings=settings, read_back_to=read_back_to)
    given = tuple(c for c in past.corrected if c.number != read.issue.number)
    return False, given, not rebuilt_whole(past, window, read_back_to)


def rebuilt_whole(past: ReadOutcome, window: int, read_back_to: datetime | None) -> bool:
    """Whether a reconstructed window is the one a read then gave: every issue active since
    `read_back_to` was read, and the window is full of issues no older than that (an issue not read
    has been inactive since, and ranks below them)."""
    if read_back_to is None:
        return True
    return len(past.window) >= window and past.window[-1].issue.updated_at >= read_back_to


def analysis_repeats(
    outcome: ReadOutcome,
    read: IssueRead,
    correction: IssueCorrection,
    settings: RuleSettings,
    *,
    window: int,
    read_back_to: datetime | None,
) -> AnalysisRepeats:
    """The recurrences of one first analysis (`correction`: what the rules found on it today)."""
    assert read.first is not None
    from_receipt, lines, partial = context_lines(
        outcome, read, settings, window=window, read_back_to=read_back_to
    )

    mine = decisions(correction)
    similar = similar_to(outcome, read, settings) if mine else []
    shown = nearest_shown(outcome, read, lines) if mine else []
    return AnalysisRepeats(
        number=read.issue.number,
        at=read.first.at,
        receipt=from_receipt,
        context_partial=partial,
        corrected=correction.is_corrected,
        corrections=mine,
        context=lines,
        recurrences=recurrences(mine, similar, shown, {line.number for line in lines}),
        left_out=read.first.left_out,
    )


def outcome_repeats(
    outcome: ReadOutcome, settings: RuleSettings, *, window: int, read_with: int
) -> list[AnalysisRepeats]:
    """The recurrences of every first analysis read; `window`: the configured `max_analyzed` that the
    analyses' reads had, `read_with`: the issues with a first analysis this read asked for."""
    edge = complete_after(outcome, read_with)
    by_number = {c.number: c for c in outcome.corrections}
    return [
        analysis_repeats(
            outcome, read, by_number[read.issue.number], settings, window=window, read_back_to=edge
        )
        for read in outcome.window
        if read.first is not None and read.issue.number in by_number
    ]


def month_numbers(found: Iterable[AnalysisRepeats]) -> RecurrenceNumbers:
    """The counts of some analyses added up."""
    total = RecurrenceNumbers()
    for item in found:
        total = total + item.numbers
    return total


def second_look_numbers(found: Iterable[AnalysisRepeats]) -> SecondLookNumbers:
    """What the second look left out of some analyses' drafts, as their markers record it."""
    items = [item for item in found if item.left_out]
    return SecondLookNumbers(
        analyses=len(items),
        duplicates=sum(1 for item in items for e in item.left_out if e.duplicate_of is not None),
        labels=sum(1 for item in items for e in item.left_out if e.duplicate_of is None),
    )


def with_repeats(report: QualityReport, found: Sequence[AnalysisRepeats]) -> QualityReport:
    """The report with each month's recurrences, receipts and second looks (the month of each first analysis, UTC)."""
    months = []
    for month in report.months:
        mine = [item for item in found if month_of(item.at) == month.month]
        months.append(
            replace(
                month,
                recurrences=month_numbers(mine),
                receipts=sum(1 for item in mine if item.receipt),
                second_look=second_look_numbers(mine),
                contexts_whole_after=max((item.at for item in mine if item.context_partial), default=None),
            )
        )
    return replace(report, months=tuple(months))
