"""Recurrences on plain models: which context an analysis had (its receipt, else reconstructed as of
its moment), which of its corrections a similar earlier issue had, and whether that was given."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from corrections.quality.numbers import QualityReport, SecondLookNumbers, month_of, quality_report
from corrections.quality.repeats import AnalysisRepeats, Decision, outcome_repeats, with_repeats
from corrections.quality.report import quality_json, quality_md
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


def _issue_titled(number: int, day: int, title: str) -> IssueBuilder:
    return IssueBuilder(number=number, title=title, clock=START + timedelta(days=day))


def _decided(found: AnalysisRepeats) -> list[tuple[Decision, int, bool]]:
    return [(r.decision, r.earlier.number, r.given) for r in found.recurrences]


def test_a_removal_made_again_recurs_given_in_the_context_one_made_after_does_not() -> None:
    first = _issue(1, 0).analysis(labels=("bug",)).label(MAINTAINER, "bug", added=False)
    again = _issue(2, 1).analysis(labels=("bug",)).label(MAINTAINER, "bug", added=False)
    # #3 is analysed before #4's removal of `docs`: #4's correction did not exist for #3.
    third = _issue(3, 2).analysis(labels=("docs",)).label(MAINTAINER, "docs", added=False)
    fourth = _issue(4, 1).analysis(labels=("docs",))
    fourth.clock = START + timedelta(days=3)
    fourth.label(MAINTAINER, "docs", added=False)
    found = _by_number(_outcome(first, again, third, fourth))
    assert found[1].recurrences == ()
    assert _decided(found[2]) == [(Decision("removed", "bug"), 1, True)]
    assert found[2].receipt is False
    assert found[3].recurrences == ()
    assert Decision("removed", "docs") in found[3].corrections


def test_the_receipt_is_the_context_a_recurrence_it_did_not_give_is_not_given() -> None:
    first = _issue(1, 0).analysis(labels=("bug",)).label(MAINTAINER, "bug", added=False)
    # The receipt names no correction: #1's correction recurs, but the model was not given it.
    blind = _with_receipt(_issue(2, 1), ["bug"], []).label(MAINTAINER, "bug", added=False)
    # Named in the receipt: given, from #1's line, whatever window a reconstruction would use.
    told = _with_receipt(_issue(3, 2), ["bug"], [1]).label(MAINTAINER, "bug", added=False)
    outcome = _outcome(first, blind, told)
    found = _by_number(outcome, window=30)
    assert found[2].receipt and _decided(found[2]) == [(Decision("removed", "bug"), 1, False)]
    assert found[3].receipt and _decided(found[3]) == [(Decision("removed", "bug"), 1, True)]
    reconstructed = _by_number(outcome, window=1)
    assert reconstructed[3].recurrences == found[3].recurrences


def test_a_correction_that_left_the_window_is_still_given_from_the_horizon() -> None:
    # Reconstructed contexts with a window of one analysis: #1 has left #3's window (#2 holds it),
    # but the horizon past the window still holds it (issue 31), so its recurrence is given.
    first = _issue(1, 0).analysis(labels=("bug",)).label(MAINTAINER, "bug", added=False)
    other = _issue(2, 1).analysis(labels=("docs",))
    again = _issue(3, 2).analysis(labels=("bug",)).label(MAINTAINER, "bug", added=False)
    found = _by_number(_outcome(first, other, again), window=1)
    assert [line.number for line in found[3].context] == [1]
    assert _decided(found[3]) == [(Decision("removed", "bug"), 1, True)]
    assert (found[3].numbers.given, found[3].numbers.not_given) == (1, 0)


def test_the_same_decision_on_an_unrelated_issue_is_no_recurrence() -> None:
    # Five issues like #7 corrected otherwise, and an unrelated one whose `bug` a maintainer
    # removed: it is in #7's context, but it is not among #7's nearest, so #7's removal is new.
    unrelated = _issue_titled(1, 0, "Typo in the manual page").analysis(labels=("bug",))
    unrelated.label(MAINTAINER, "bug", added=False)
    alike = [
        _issue_titled(n, n - 1, f"Crash on start with photos {n}")
        .analysis(labels=())
        .label(MAINTAINER, "docs")
        for n in range(2, 7)
    ]
    issue = _issue_titled(7, 7, "Crash on start with photos").analysis(labels=("bug",))
    issue.label(MAINTAINER, "bug", added=False)
    found = _by_number(_outcome(unrelated, *alike, issue))
    assert 1 in [line.number for line in found[7].context]
    assert Decision("removed", "bug") in found[7].corrections
    assert found[7].recurrences == ()


def test_an_objected_duplicate_of_the_same_issue_and_an_added_label() -> None:
    reporter = Actor(login="rita")
    first = _issue(1, 0).analysis(labels=(), duplicate_of=9).comment(reporter, "Not the same.")
    first.label(MAINTAINER, "question")
    again = _issue(2, 1).analysis(labels=(), duplicate_of=9).comment(reporter, "No.")
    again.label(MAINTAINER, "question")
    other = _issue(3, 2).analysis(labels=(), duplicate_of=8).comment(reporter, "No.")
    kept = _issue(4, 3).analysis(labels=("bug",))
    outcome = _outcome(first, again, other, kept)
    found = _by_number(outcome)
    assert sorted(_decided(found[2])) == [
        (Decision("added", "question"), 1, True),
        (Decision("duplicate", "9"), 1, True),
    ]
    assert found[3].recurrences == ()
    report = with_repeats(
        quality_report(outcome, SETTINGS, 100),
        list(outcome_repeats(outcome, SETTINGS, window=30, read_with=100)),
    )
    assert isinstance(report, QualityReport)
    (month,) = report.months
    assert month.month == month_of(START)
    # #1: 2 decisions, new; #2: 2 decisions, both recur, given; #3: 1, new; #4 nobody corrected.
    numbers = month.recurrences
    assert (numbers.analyses, numbers.corrections, numbers.given, numbers.not_given, numbers.uncorrected) == (
        4,
        5,
        2,
        0,
        1,
    )
    assert month.receipts == 0


def test_quality_counts_what_the_second_look_left_out_as_the_markers_record_it() -> None:
    def looked(builder: IssueBuilder, second_look: list[dict[str, object]]) -> IssueBuilder:
        payload = {
            "v": 1,
            "kind": "first",
            "labels": ["bug"],
            "duplicate_of": None,
            "second_look": second_look,
        }
        body = f"Analysis.\n<!-- assistant:analysis {json.dumps(payload)} -->"
        return builder.comment(ASSISTANT, body, node_id=f"A{builder.number}")

    both = [
        {"duplicate_of": 9, "why": "objected"},
        {"label": "docs", "why": "removed_nearby", "removed": 2},
    ]
    outcome = _outcome(
        looked(_issue(1, 0), both),
        looked(_issue(2, 1), [{"duplicate_of": 8, "why": "not_planned"}]),
        _issue(3, 2).analysis(labels=("bug",)),
    )
    report = with_repeats(
        quality_report(outcome, SETTINGS, 100), outcome_repeats(outcome, SETTINGS, window=30, read_with=100)
    )
    (month,) = report.months
    assert month.second_look == SecondLookNumbers(analyses=2, duplicates=2, labels=1)
    document = json.loads(quality_json(report, month.month, {"requests": 1, "points": 1}))
    assert document["months"][0]["second_look"] == {"analyses": 2, "duplicates": 2, "labels": 1}
    text = quality_md(report, month.month, 100, 5)
    assert (
        "- Second look: it changed 2 of 3 first analyses before they were posted, leaving out "
        "2 duplicate notices and 1 label" in text
    )
    # A month it changed nothing in says nothing of it (off, or markers older than it).
    plain = _outcome(_issue(3, 2).analysis(labels=("bug",)))
    quiet = with_repeats(
        quality_report(plain, SETTINGS, 100), outcome_repeats(plain, SETTINGS, window=30, read_with=100)
    )
    assert "Second look" not in quality_md(quiet, month.month, 100, 5)
