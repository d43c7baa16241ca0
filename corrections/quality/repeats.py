"""Repeats: corrections of an analysis whose model had already been given that correction (pure).

Analysis B's correcting decision is a **repeat** when B's context held a correction line of an
earlier issue A with the same decision: "removed L" (a maintainer removed L on A, and removes it on
B), "added L", or a duplicate notice of D objected to. B's context is its receipt when its marker
has one (the issues named there, their lines as they stood when B was written); otherwise the
context a read just before B would have given (corrections/quality/as_of.py). Both come from the one read
and the rules' own corrections (IssueCorrection): nothing is decided again here.

Counted per analysis: its `corrections` (decisions: each removed label, each added label, an
objected duplicate notice; a 👎 is no decision that can come back), its `repeats`, the decisions
its context `given` (distinct), and of those the ones `not_repeated` (given, and B did not make
that mistake again): `not_repeated = given - repeats`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from corrections.quality.as_of import correct_as_of, outcome_as_of, read_as_of
from corrections.quality.numbers import QualityReport, RepeatNumbers, complete_after, month_of
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.rules.models import DuplicateOutcome, IssueCorrection
from corrections.rules.settings import RuleSettings


@dataclass(frozen=True, order=True)
class Decision:
    """One correcting decision: `removed` or `added` a label, or `duplicate` notice of #N objected."""

    kind: str  # "removed" | "added" | "duplicate"
    what: str  # the label's name, or the duplicate's issue number

    def words(self) -> str:
        """The decision as corrections.md's line says it."""
        if self.kind == "duplicate":
            return f"duplicate notice (of #{self.what}) objected to"
        return f"maintainer {self.kind} label {self.what}"


def decisions(correction: IssueCorrection) -> tuple[Decision, ...]:
    """The correcting decisions of one issue's first analysis, in a fixed order."""
    found = [Decision("removed", name) for name in correction.labels_removed]
    found += [Decision("added", name) for name in correction.labels_added]
    duplicate = correction.duplicate
    if duplicate is not None and duplicate.outcome is DuplicateOutcome.OBJECTED:
        found.append(Decision("duplicate", str(duplicate.of)))
    return tuple(found)


@dataclass(frozen=True)
class Repeat:
    """A decision of B that the line of issue `given_by` had given B's model (as it then stood)."""

    decision: Decision
    given_by: IssueCorrection


@dataclass(frozen=True)
class AnalysisRepeats:
    """One first analysis B: its decisions, what its context gave, and which came back."""

    number: int
    at: datetime
    receipt: bool  # B's context is its receipt (else reconstructed)
    corrections: tuple[Decision, ...]
    given: tuple[Decision, ...]  # distinct decisions of the lines in B's context
    context: tuple[IssueCorrection, ...]  # those lines, as they stood when B was written
    repeats: tuple[Repeat, ...]

    @property
    def numbers(self) -> RepeatNumbers:
        """The counts quality.json gives."""
        return RepeatNumbers(
            corrections=len(self.corrections),
            repeats=len(self.repeats),
            given=len(self.given),
            not_repeated=len(self.given) - len(self.repeats),
        )


def context_lines(
    outcome: ReadOutcome,
    read: IssueRead,
    settings: RuleSettings,
    *,
    window: int,
    read_back_to: datetime | None,
) -> tuple[bool, tuple[IssueCorrection, ...]]:
    """The correction lines B's model was given, and whether they come from its receipt."""
    first = read.first
    assert first is not None
    moment = first.at
    if first.receipt is not None:
        by_number = {r.issue.number: r for r in outcome.window}
        lines = []
        for number in first.receipt.corrections:
            other = by_number.get(number)
            if other is None or number == read.issue.number or other.first is None:
                continue  # not read today: its line cannot be known
            then = read_as_of(other, moment, settings)
            if then is None:
                continue
            line = correct_as_of(then, moment, outcome, settings)
            if line.is_corrected:
                lines.append(line)
        return True, tuple(lines)
    past = outcome_as_of(outcome, moment, max_analyzed=window, settings=settings, read_back_to=read_back_to)
    return False, tuple(c for c in past.corrected if c.number != read.issue.number)


def analysis_repeats(
    outcome: ReadOutcome,
    read: IssueRead,
    correction: IssueCorrection,
    settings: RuleSettings,
    *,
    window: int,
    read_back_to: datetime | None,
) -> AnalysisRepeats:
    """The repeats of one first analysis (`correction`: what the rules found on it today)."""
    assert read.first is not None
    from_receipt, lines = context_lines(outcome, read, settings, window=window, read_back_to=read_back_to)
    given: dict[Decision, IssueCorrection] = {}
    for line in lines:
        for decision in decisions(line):
            given.setdefault(decision, line)  # the first line of the context that holds it
    mine = decisions(correction)
    return AnalysisRepeats(
        number=read.issue.number,
        at=read.first.at,
        receipt=from_receipt,
        corrections=mine,
        given=tuple(sorted(given)),
        context=lines,
        repeats=tuple(Repeat(d, given[d]) for d in mine if d in given),
    )


def outcome_repeats(
    outcome: ReadOutcome, settings: RuleSettings, *, window: int, read_with: int
) -> list[AnalysisRepeats]:
    """The repeats of every first analysis read; `window`: the configured `max_analyzed` that the
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


def month_numbers(found: Iterable[AnalysisRepeats]) -> RepeatNumbers:
    """The counts of some analyses added up."""
    total = RepeatNumbers()
    for item in found:
        numbers = item.numbers
        total = RepeatNumbers(
            corrections=total.corrections + numbers.corrections,
            repeats=total.repeats + numbers.repeats,
            given=total.given + numbers.given,
            not_repeated=total.not_repeated + numbers.not_repeated,
        )
    return total


def with_repeats(report: QualityReport, found: Sequence[AnalysisRepeats]) -> QualityReport:
    """The report with each month's repeats and receipts (the month of each first analysis, UTC)."""
    months = []
    for month in report.months:
        mine = [item for item in found if month_of(item.at) == month.month]
        months.append(
            replace(month, repeats=month_numbers(mine), receipts=sum(1 for item in mine if item.receipt))
        )
    return replace(report, months=tuple(months))
