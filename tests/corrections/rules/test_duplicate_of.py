"""A close (or mark) as a duplicate of another issue than the one the analysis named corrects the
notice: the rule, its words in corrections.md, explain and the quality numbers.

GitHub's shape: `ClosedEvent.duplicateOf: IssueOrPullRequest` ("The issue or pull request that
this issue was marked as a duplicate of"), in GitHub's schema of 2026-07-24 (octokit/graphql-schema,
branch `schema-update`, commit c7aba2195c53e68b21bab414dfd2cff5d7eeaef2, schema.graphql L4934),
added 2025-05-22; recorded in tests/conformance/recordings/closed_as_duplicate_of.json.
"""

from __future__ import annotations

from typing import Any

from corrections.quality.explain import explain
from corrections.quality.numbers import AnalyzedIssue, month_quality
from corrections.rules import duplicates
from corrections.rules.issue import correct, first_analysis
from corrections.rules.models import Actor, DuplicateOutcome, IssueCorrection, Objector, Permission
from corrections.rules.settings import RuleSettings

ALICE = Actor(login="alice")  # ADMIN
DAVE = Actor(login="dave")  # the reporter, READ
PERMISSIONS = {"alice": Permission.ADMIN, "dave": Permission.READ}


def corrected(issue: Any, settings: RuleSettings, permissions: Any = PERMISSIONS) -> IssueCorrection:
    built = issue.build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    return correct(built, analysis, (), settings, permissions)


def test_closed_as_a_duplicate_of_another_issue_is_a_maintainers_objection(
    issue: Any, settings: RuleSettings
) -> None:
    issue.analysis(duplicate_of=7).close(ALICE, "DUPLICATE", duplicate_of=9)
    found = corrected(issue, settings)
    assert found.duplicate is not None
    assert (found.duplicate.outcome, found.duplicate.by, found.duplicate.instead) == (
        DuplicateOutcome.OBJECTED,
        Objector.MAINTAINER,
        9,
    )
    assert found.is_corrected and found.by_maintainer
    assert duplicates.correction_words(found, "") == [
        "duplicate notice (of #7) objected to by a maintainer: it is a duplicate of #9 instead"
    ]


def test_closed_as_a_duplicate_of_the_issue_named_confirms(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).close(ALICE, "DUPLICATE", duplicate_of=7)
    assert corrected(issue, settings).duplicate.outcome is DuplicateOutcome.CONFIRMED  # type: ignore[union-attr]


def test_a_close_that_names_no_issue_confirms_as_before(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).close(ALICE, "DUPLICATE")
    assert corrected(issue, settings).duplicate.outcome is DuplicateOutcome.CONFIRMED  # type: ignore[union-attr]


def test_marked_as_a_duplicate_of_another_issue_objects_too(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).mark(ALICE, 12)
    notice = corrected(issue, settings).duplicate
    assert notice is not None and (notice.outcome, notice.instead) == (DuplicateOutcome.OBJECTED, 12)


def test_the_reporter_closing_as_another_duplicate_objects_without_triage_access(
    issue: Any, settings: RuleSettings
) -> None:
    issue.analysis(duplicate_of=7).close(DAVE, "DUPLICATE", duplicate_of=9)
    found = corrected(issue, settings)
    assert found.duplicate is not None and found.duplicate.by is Objector.OTHER
    assert not found.by_maintainer


def test_a_closer_whose_permission_was_not_read_does_not_count(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).close(ALICE, "DUPLICATE", duplicate_of=9)
    assert corrected(issue, settings, {}).duplicate.outcome is DuplicateOutcome.OPEN  # type: ignore[union-attr]


def test_the_closer_is_whose_permission_is_asked(issue: Any, settings: RuleSettings) -> None:
    built = issue.analysis(duplicate_of=7).close(ALICE, "DUPLICATE", duplicate_of=9).build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    assert duplicates.duplicate_deciders(built, analysis, settings) == {"alice"}
    same = issue.close(ALICE, "DUPLICATE", duplicate_of=7).build()
    assert duplicates.duplicate_deciders(same, analysis, settings) == set()


def test_explain_says_which_issue_was_chosen(issue: Any, settings: RuleSettings) -> None:
    built = issue.analysis(duplicate_of=7).close(ALICE, "DUPLICATE", duplicate_of=9).build()
    out = "\n".join(explain(built, settings, PERMISSIONS, []))
    assert "closed it as a duplicate of #9, not the issue named: an objection by a maintainer" in out
    assert (
        "=> learned: the duplicate notice was objected to by a maintainer (it is a duplicate of #9 instead)"
        in out
    )


def test_quality_counts_it_as_objected_by_a_maintainer(issue: Any, settings: RuleSettings) -> None:
    found = corrected(issue.analysis(duplicate_of=7).close(ALICE, "DUPLICATE", duplicate_of=9), settings)
    month = month_quality("2026-11", [AnalyzedIssue(1, "2026-11", found)], ["bug"], complete=True)
    assert (month.duplicates_confirmed, month.duplicates_objected, month.duplicates_objected_by_other) == (
        0,
        1,
        0,
    )
