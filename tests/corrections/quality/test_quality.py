"""The quality numbers on plain models: definitions of precision and recall, what is put forward."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from corrections.quality.numbers import AnalyzedIssue, month_quality
from corrections.rules.issue import correct
from corrections.rules.labels import LabelNumbers, label_numbers
from corrections.rules.models import (
    Actor,
    Analysis,
    Comment,
    DuplicateNotice,
    DuplicateOutcome,
    Issue,
    IssueCorrection,
    LabelChange,
    Objector,
)
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import parse_vocabulary

AT = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)
ASSISTANT = Actor(login="triage-assistant", typename="Bot")
SETTINGS = RuleSettings(vocabulary=parse_vocabulary("- `bug`: x\n- `crash`: y\n- `possible-duplicate`: z\n"))


def item(
    proposed: tuple[str, ...], removed: tuple[str, ...] = (), added: tuple[str, ...] = ()
) -> IssueCorrection:
    return IssueCorrection(
        number=1, title="t", labels_removed=removed, labels_added=added, put_forward=proposed
    )


def test_precision_is_kept_over_proposed_and_recall_kept_over_kept_plus_added() -> None:
    items = [item(("bug",)), item(("bug",), removed=("bug",)), item(("crash",), added=("bug",))]
    bug = label_numbers("bug", items)
    assert (bug.proposed, bug.kept, bug.removed, bug.added) == (2, 1, 1, 1)
    assert bug.precision == 0.5
    assert bug.recall == 0.5


def test_no_divisor_means_no_ratio() -> None:
    assert LabelNumbers(label="bug").precision is None
    assert LabelNumbers(label="bug").recall is None
    assert LabelNumbers(label="bug", proposed=1, removed=1).recall is None


def test_put_forward_is_marker_or_applied_never_the_duplicate_label_or_outside_the_vocabulary() -> None:
    body = json.dumps({"v": 1, "kind": "first", "labels": ["BUG", "wontfix", "possible-duplicate"]})
    comment = Comment(node_id="A", at=AT, author=ASSISTANT, body=f"<!-- assistant:analysis {body} -->")
    issue = Issue(
        number=1,
        title="t",
        created_at=AT,
        updated_at=AT,
        events=(
            comment,
            LabelChange(kind="labeled", at=AT, actor=ASSISTANT, label="crash"),
            LabelChange(kind="labeled", at=AT, actor=Actor(login="mara"), label="question"),
        ),
    )
    analysis = Analysis(
        index=0, node_id="A", database_id=None, at=AT, kind="first", labels=("BUG", "wontfix")
    )
    assert correct(issue, analysis, [], SETTINGS, {}).put_forward == ("bug", "crash")


def test_month_counts_duplicates_and_thumbs_of_its_own_analyses_only() -> None:
    def with_notice(outcome: DuplicateOutcome, month: str, thumbs: int = 0) -> AnalyzedIssue:
        by = Objector.MAINTAINER if outcome is DuplicateOutcome.OBJECTED else None
        correction = IssueCorrection(
            number=1, title="t", duplicate=DuplicateNotice(of=2, outcome=outcome, by=by), thumbs_down=thumbs
        )
        return AnalyzedIssue(number=1, month=month, correction=correction)

    items = [
        with_notice(DuplicateOutcome.CONFIRMED, "2026-10"),
        with_notice(DuplicateOutcome.OBJECTED, "2026-10", thumbs=2),
        with_notice(DuplicateOutcome.OPEN, "2026-09", thumbs=1),
    ]
    month = month_quality("2026-10", items, ["bug"], complete=True)
    assert (month.analyses, month.corrected) == (2, 1)
    assert (month.duplicates_confirmed, month.duplicates_objected, month.duplicates_open) == (1, 1, 0)
    assert (month.thumbs_down, month.thumbs_down_analyses) == (2, 1)
    assert month.labels == ()


def test_a_label_a_person_added_before_the_assistant_applied_it_is_added_not_kept() -> None:
    """The disagreement of issue 15: the rules said "added" while quality also counted it proposed
    and kept, so precision and recall contradicted each other."""
    body = json.dumps({"v": 1, "kind": "first", "labels": ["crash"]})
    comment = Comment(node_id="A", at=AT, author=ASSISTANT, body=f"<!-- assistant:analysis {body} -->")
    issue = Issue(
        number=1,
        title="t",
        created_at=AT,
        updated_at=AT,
        events=(
            comment,
            LabelChange(kind="labeled", at=AT, actor=Actor(login="mara"), label="bug"),
            LabelChange(kind="labeled", at=AT, actor=ASSISTANT, label="bug"),
        ),
    )
    analysis = Analysis(index=0, node_id="A", database_id=None, at=AT, kind="first", labels=("crash",))
    found = correct(issue, analysis, [], SETTINGS, {})
    assert found.labels_added == ("bug",)
    assert found.put_forward == ("crash",)
    bug = label_numbers("bug", [correct(issue, analysis, [], SETTINGS, {})])
    assert (bug.proposed, bug.kept, bug.removed, bug.added) == (0, 0, 0, 1)
