"""Which scanned issues are kept examples: labels a person put on and left, never the assistant's
or a bot's, on issues the assistant never analysed (corrections/rules/kept_examples.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from corrections.rules.kept_examples import kept_example
from corrections.rules.models import Actor, Closed, Comment, Event, Issue, LabelChange, Reopened
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import Vocabulary

T0 = datetime(2026, 5, 1, tzinfo=UTC)
SETTINGS = RuleSettings(vocabulary=Vocabulary(("bug", "crash", "area-tls", "possible-duplicate")))
MARA = Actor(login="mara")
REPORTER = Actor(login="rita")
LABELER = Actor(login="labeler", typename="Bot")
ASSISTANT = Actor(login="triage-assistant", typename="Bot")


def _at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def _issue(*events: Event) -> Issue:
    return Issue(
        number=7,
        title="TLS handshake fails",
        author=REPORTER,
        created_at=T0,
        updated_at=_at(99),
        events=events,
    )


def _label(actor: Actor | None, name: str, minutes: int, kind: str = "labeled") -> LabelChange:
    return LabelChange(kind=kind, at=_at(minutes), actor=actor, label=name)


def test_labels_a_maintainer_put_on_and_left_are_kept_in_order() -> None:
    found = kept_example(
        _issue(_label(MARA, "area-tls", 1), _label(MARA, "Bug", 2), _label(MARA, "wontfix", 3)), SETTINGS
    )
    assert found is not None
    assert (found.number, found.title, found.labels, found.closed) == (
        7,
        "TLS handshake fails",
        ("area-tls", "bug"),
        None,
    )


def test_a_bots_label_a_removed_label_and_the_duplicate_label_are_not_examples() -> None:
    assert kept_example(_issue(_label(LABELER, "bug", 1)), SETTINGS) is None
    assert kept_example(_issue(_label(MARA, "bug", 1), _label(MARA, "bug", 2, "unlabeled")), SETTINGS) is None
    assert kept_example(_issue(_label(MARA, "possible-duplicate", 1)), SETTINGS) is None
    assert kept_example(_issue(_label(None, "bug", 1)), SETTINGS) is None  # a deleted account
    # A person's label a bot applied again afterwards: the bot's is the one standing.
    assert (
        kept_example(
            _issue(_label(MARA, "bug", 1), _label(MARA, "bug", 2, "unlabeled"), _label(LABELER, "bug", 3)),
            SETTINGS,
        )
        is None
    )


def test_an_issue_the_assistant_analysed_is_no_example() -> None:
    body = 'Looks like a bug.\n<!-- assistant:analysis {"v":1,"kind":"first","labels":["bug"],"duplicate_of":null} -->'
    analysed = Comment(node_id="IC_1", database_id=3_000_000_001, at=_at(1), author=ASSISTANT, body=body)
    assert kept_example(_issue(analysed, _label(MARA, "bug", 2)), SETTINGS) is None


def test_a_maintainers_telling_closing_is_kept_the_authors_is_not() -> None:
    not_planned = Closed(at=_at(5), actor=MARA, state_reason="NOT_PLANNED")
    found = kept_example(_issue(_label(MARA, "bug", 1), not_planned), SETTINGS)
    assert found is not None and found.closed == "closed as not planned"
    by_author = Closed(at=_at(5), actor=REPORTER, state_reason="NOT_PLANNED")
    assert kept_example(_issue(_label(MARA, "bug", 1), by_author), SETTINGS).closed is None  # type: ignore[union-attr]
    reopened = (not_planned, Reopened(at=_at(6), actor=REPORTER))
    assert kept_example(_issue(_label(MARA, "bug", 1), *reopened), SETTINGS).closed is None  # type: ignore[union-attr]
