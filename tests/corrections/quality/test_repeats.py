"""Repeats on plain models: which context an analysis had (its receipt, else reconstructed as of its
moment) and which of its corrections that context had given already."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from corrections.quality.numbers import QualityReport, month_of, quality_report
from corrections.quality.repeats import AnalysisRepeats, Decision, outcome_repeats, with_repeats
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.rules.issue import correct
from corrections.rules.models import Actor, Permission
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import parse_vocabulary
from tests.corrections.conftest import ASSISTANT, VOCABULARY, IssueBuilder

MAINTAINER = Actor(login="mara")
SETTINGS = RuleSettings(vocabulary=parse_vocabulary(VOCABULARY))
START = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)


def _issue(number: int, day: int) -> IssueBuilder:
    return IssueBuilder(number=number, title=f"issue {number}", clock=START + timedelta(days=day))


def _with_receipt(
    builder: IssueBuilder, labels: list[str], corrections: list[int], duplicate_of: int | None = None
) -> IssueBuilder:
    payload = {
        "v": 1,
        "kind": "first",
        "labels": labels,
        "duplicate_of": duplicate_of,
        "context": {"corrections": corrections, "learnings": []},
    }
    body = f"Analysis.\n<!-- assistant:analysis {json.dumps(payload)} -->"
    return builder.comment(ASSISTANT, body, node_id=f"A{builder.number}")


def _outcome(*builders: IssueBuilder) -> ReadOutcome:
    issues = [b.build() for b in builders]
    reads = [
        IssueRead.of(issue, None, 100, SETTINGS)
        for issue in sorted(issues, key=lambda i: i.updated_at, reverse=True)
    ]
    corrections = []
    for read in reads:
        assert read.first is not None
        corrections.append(
            correct(read.issue, read.first, [], SETTINGS, {"mara": Permission.ADMIN, "rita": Permission.READ})
        )
    return ReadOutcome(
        repository="octo/r",
        window=tuple(reads),
        corrections=tuple(corrections),
        settings=SETTINGS,
        scan_exhausted=True,
        permissions={"mara": Permission.ADMIN, "rita": Permission.READ},
    )


def _by_number(outcome: ReadOutcome, window: int = 30) -> dict[int, AnalysisRepeats]:
    return {found.number: found for found in outcome_repeats(outcome, SETTINGS, window=window, read_with=100)}


def test_a_removal_given_before_and_made_again_is_a_repeat_one_made_after_is_not() -> None:
    first = _issue(1, 0).analysis(labels=("bug",)).label(MAINTAINER, "bug", added=False)
    again = _issue(2, 1).analysis(labels=("bug",)).label(MAINTAINER, "bug", added=False)
    # #3 is analysed before #4's removal of `docs`: #4's line was not in #3's context.
    third = _issue(3, 2).analysis(labels=("docs",)).label(MAINTAINER, "docs", added=False)
    fourth = _issue(4, 1).analysis(labels=("docs",))
    fourth.clock = START + timedelta(days=3)
    fourth.label(MAINTAINER, "docs", added=False)
    found = _by_number(_outcome(first, again, third, fourth))
    assert found[1].repeats == ()
    repeat = found[2].repeats
    assert [(r.decision, r.given_by.number) for r in repeat] == [(Decision("removed", "bug"), 1)]
    assert found[2].receipt is False
    assert found[3].repeats == ()
    assert Decision("removed", "docs") in found[3].corrections
    # #3 was given #1 and #2's removed `bug` (one decision), #4 not yet corrected.
    assert found[3].given == (Decision("removed", "bug"),)


def test_the_receipt_is_the_context_when_there_is_one() -> None:
    first = _issue(1, 0).analysis(labels=("bug",)).label(MAINTAINER, "bug", added=False)
    # The receipt names no correction: the model was not given #1's line, so no repeat.
    blind = _with_receipt(_issue(2, 1), ["bug"], []).label(MAINTAINER, "bug", added=False)
    # Named in the receipt: a repeat, from #1's line, whatever window a reconstruction would use.
    told = _with_receipt(_issue(3, 2), ["bug"], [1]).label(MAINTAINER, "bug", added=False)
    outcome = _outcome(first, blind, told)
    found = _by_number(outcome, window=30)
    assert found[2].receipt and found[2].repeats == ()
    assert found[3].receipt and [r.given_by.number for r in found[3].repeats] == [1]
    reconstructed = _by_number(outcome, window=1)
    assert reconstructed[3].repeats == found[3].repeats


def test_an_objected_duplicate_of_the_same_issue_and_an_added_label() -> None:
    reporter = Actor(login="rita")
    first = _issue(1, 0).analysis(labels=(), duplicate_of=9).comment(reporter, "Not the same.")
    first.label(MAINTAINER, "question")
    again = _issue(2, 1).analysis(labels=(), duplicate_of=9).comment(reporter, "No.")
    again.label(MAINTAINER, "question")
    other = _issue(3, 2).analysis(labels=(), duplicate_of=8).comment(reporter, "No.")
    outcome = _outcome(first, again, other)
    found = _by_number(outcome)
    assert sorted(r.decision for r in found[2].repeats) == [
        Decision("added", "question"),
        Decision("duplicate", "9"),
    ]
    assert found[3].repeats == ()
    report = with_repeats(
        quality_report(outcome, SETTINGS, 100),
        list(outcome_repeats(outcome, SETTINGS, window=30, read_with=100)),
    )
    assert isinstance(report, QualityReport)
    (month,) = report.months
    assert month.month == month_of(START)
    # #1: 2 decisions, given 0; #2: 2 decisions, both given and both back; #3: 1, given 2.
    assert (
        month.repeats.corrections,
        month.repeats.repeats,
        month.repeats.given,
        month.repeats.not_repeated,
    ) == (5, 2, 4, 2)
    assert month.receipts == 0
