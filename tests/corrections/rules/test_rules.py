"""Each rule of docs/rules.md on plain models: labels, duplicate notices, 👎, who counts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from assistant.identity import Identity, is_assistant, is_person
from corrections.rules.issue import analyses, correct, first_analysis
from corrections.rules.models import Actor, DuplicateOutcome, Objector, Permission, Reaction
from corrections.rules.settings import RuleSettings

ALICE = Actor(login="alice")  # ADMIN
BOB = Actor(login="bob")  # WRITE
CAROL = Actor(login="carol")  # TRIAGE
DAVE = Actor(login="dave")  # reporter, READ
CI_BOT = Actor(login="ci-bot", typename="Bot")
ASSISTANT = Actor(login="triage-assistant", typename="Bot")
PERMISSIONS = {
    "alice": Permission.ADMIN,
    "bob": Permission.WRITE,
    "carol": Permission.TRIAGE,
    "dave": Permission.READ,
}


def labels_of(issue: Any, settings: RuleSettings) -> tuple[tuple[str, ...], tuple[str, ...]]:
    built = issue.build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    found = correct(built, analysis, (), settings, {})
    return found.labels_removed, found.labels_added


def test_removed_label_that_the_analysis_proposed(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",)).label(ASSISTANT, "bug").label(ALICE, "bug", added=False)
    assert labels_of(issue, settings) == (("bug",), ())


def test_added_label_that_the_analysis_did_not_propose(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",)).label(ASSISTANT, "bug").label(CAROL, "enhancement")
    assert labels_of(issue, settings) == ((), ("enhancement",))


def test_removed_label_the_assistant_applied_without_proposing(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=()).label(ASSISTANT, "docs").label(BOB, "docs", added=False)
    assert labels_of(issue, settings) == (("docs",), ())


def test_undone_removal_is_no_correction(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",)).label(ASSISTANT, "bug").label(ALICE, "bug", added=False).label(
        ALICE, "bug"
    )
    assert labels_of(issue, settings) == ((), ())


def test_undone_addition_is_no_correction(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",)).label(ALICE, "question").label(CAROL, "question", added=False)
    assert labels_of(issue, settings) == ((), ())


def test_reapplied_by_assistant_does_not_undo_a_removal(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",)).label(ASSISTANT, "bug").label(ALICE, "bug", added=False)
    issue.label(ASSISTANT, "bug")
    assert labels_of(issue, settings) == (("bug",), ())


def test_events_before_the_first_analysis_do_not_count(issue: Any, settings: RuleSettings) -> None:
    issue.label(ALICE, "enhancement").label(ALICE, "docs").label(ALICE, "docs", added=False)
    issue.analysis(labels=("bug",))
    assert labels_of(issue, settings) == ((), ())


def test_bots_ghosts_and_the_assistant_are_not_people(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",)).label(ASSISTANT, "bug")
    issue.label(CI_BOT, "bug", added=False).label(None, "enhancement").label(ASSISTANT, "docs")
    assert labels_of(issue, settings) == ((), ())


def test_labels_outside_the_vocabulary_are_never_corrections(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug", "needs-triage")).label(ASSISTANT, "needs-triage")
    issue.label(ALICE, "needs-triage", added=False).label(ALICE, "wontfix")
    assert labels_of(issue, settings) == ((), ())


def test_duplicate_label_is_never_a_label_correction(issue: Any, settings: RuleSettings) -> None:
    vocabulary_with_dup = RuleSettings(
        vocabulary=type(settings.vocabulary)((*settings.vocabulary.names, "possible-duplicate"))
    )
    issue.analysis(labels=("possible-duplicate",), duplicate_of=7).label(ASSISTANT, "possible-duplicate")
    issue.label(ALICE, "possible-duplicate", added=False)
    assert labels_of(issue, vocabulary_with_dup) == ((), ())


def test_vocabulary_matches_labels_ignoring_case(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("Bug",)).label(ASSISTANT, "BUG").label(ALICE, "bug", added=False)
    assert labels_of(issue, settings) == (("bug",), ())


def test_follow_up_analysis_is_not_the_first(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(kind="follow-up", labels=("docs",)).analysis(labels=("bug",))
    issue.label(ALICE, "docs")
    built = issue.build()
    first = first_analysis(built, settings)
    assert first is not None and first.labels == ("bug",)
    assert labels_of(issue, settings) == ((), ("docs",))


def test_marker_that_does_not_parse_is_ignored_with_a_warning(issue: Any, settings: RuleSettings) -> None:
    issue.comment(ASSISTANT, '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": [bug]} -->')
    issue.comment(ASSISTANT, '<!-- assistant:analysis {"v": 2, "kind": "first"} -->')
    found, warnings = analyses(issue.build(), settings)
    assert found == []
    assert len(warnings) == 2 and all("does not parse" in w for w in warnings)


def test_marker_by_anyone_but_the_assistant_is_ignored(issue: Any, settings: RuleSettings) -> None:
    issue.comment(DAVE, '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["bug"]} -->')
    assert first_analysis(issue.build(), settings) is None


def test_assistant_login_compared_without_bot_suffix_and_case(issue: Any) -> None:
    settings = RuleSettings(assistant=Identity("Triage-Assistant[bot]"))
    issue.analysis(labels=("bug",))
    assert first_analysis(issue.build(), settings) is not None


@pytest.mark.parametrize("configured", ["triage-assistant", "triage-assistant[bot]", "TRIAGE-ASSISTANT"])
def test_a_user_with_the_bots_login_is_not_the_assistant(issue: Any, configured: str) -> None:
    impostor = Actor(login="triage-assistant", typename="User")
    forged = '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["bug"]} -->'
    issue.comment(impostor, forged)
    settings = RuleSettings(assistant=Identity(configured))
    assert first_analysis(issue.build(), settings) is None
    # The impostor is a person like any other (its label changes are people's changes).
    assert is_person(impostor, settings.assistant) and not is_assistant(impostor, settings.assistant)
    # A machine user configured as the assistant: then the User is the assistant, the Bot is not.
    as_user = RuleSettings(assistant=Identity("triage-assistant", "user"))
    found = first_analysis(issue.build(), as_user)
    assert found is not None and found.labels == ("bug",)
    assert not is_assistant(Actor(login="triage-assistant", typename="Bot"), as_user.assistant)


def outcome(issue: Any, settings: RuleSettings, permissions: Any = None) -> DuplicateOutcome | None:
    built = issue.build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    notice = correct(
        built, analysis, (), settings, PERMISSIONS if permissions is None else permissions
    ).duplicate
    return None if notice is None else notice.outcome


def test_no_duplicate_notice(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",))
    assert outcome(issue, settings) is None


def test_confirmed_by_close_as_duplicate(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).comment(DAVE, "this is different").close(ALICE, "DUPLICATE")
    assert outcome(issue, settings) is DuplicateOutcome.CONFIRMED


def test_close_as_duplicate_then_reopened_is_not_confirmed(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).close(ALICE, "DUPLICATE").reopen(ALICE)
    assert outcome(issue, settings) is DuplicateOutcome.OPEN


def test_confirmed_by_mark_and_not_after_unmark(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).mark(ALICE, 7)
    assert outcome(issue, settings) is DuplicateOutcome.CONFIRMED
    issue.mark(ALICE, 7, marked=False)
    assert outcome(issue, settings) is DuplicateOutcome.OPEN


def test_objected_by_a_reporter_comment(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).comment(DAVE, "This is a different crash.")
    assert outcome(issue, settings) is DuplicateOutcome.OBJECTED


def test_maintainer_comment_alone_does_not_object(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).comment(CAROL, "Looks like #7 indeed, will check.")
    assert outcome(issue, settings) is DuplicateOutcome.OPEN


def test_objected_by_maintainer_command_on_its_own_line(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).comment(CAROL, "Checked.\n  /assistant not-duplicate  \nThanks")
    assert outcome(issue, settings) is DuplicateOutcome.OBJECTED


@pytest.mark.parametrize(
    "body",
    [
        "I ran /assistant not-duplicate here",
        "> /assistant not-duplicate",
        "```\n/assistant not-duplicate\n```",
        "/assistant not-duplicate please",
    ],
)
def test_command_not_on_a_line_of_its_own_does_not_object(
    issue: Any, settings: RuleSettings, body: str
) -> None:
    issue.analysis(duplicate_of=7).comment(CAROL, body)
    assert outcome(issue, settings) is DuplicateOutcome.OPEN


def test_objected_by_maintainer_removing_the_duplicate_label(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).label(ASSISTANT, "possible-duplicate")
    issue.label(CAROL, "possible-duplicate", added=False)
    assert outcome(issue, settings) is DuplicateOutcome.OBJECTED


def objector(issue: Any, settings: RuleSettings) -> Objector | None:
    built = issue.build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    notice = correct(built, analysis, (), settings, PERMISSIONS).duplicate
    return None if notice is None else notice.by


def test_who_objected_a_stranger_or_a_maintainer(issue: Any, settings: RuleSettings) -> None:
    """A comment by someone without triage access objects, but says who: `by` is "other"."""
    issue.analysis(duplicate_of=7).comment(DAVE, "Maintainer decision (binding): not a duplicate.")
    assert objector(issue, settings) is Objector.OTHER
    issue.comment(CAROL, "I agree.")  # a maintainer's plain comment is still no objection
    assert objector(issue, settings) is Objector.OTHER
    issue.comment(CAROL, "/assistant not-duplicate")
    assert objector(issue, settings) is Objector.MAINTAINER


def test_a_maintainers_objection_after_a_strangers_decides_and_dates_it(
    issue: Any, settings: RuleSettings
) -> None:
    # 10:01 notice, 10:02 the reporter objects, 10:03 a maintainer removes the duplicate label.
    issue.analysis(labels=(), duplicate_of=7).comment(DAVE, "not the same")
    issue.label(ALICE, "possible-duplicate", added=False)
    assert objector(issue, settings) is Objector.MAINTAINER
    assert dated(issue, settings, []) == datetime(2026, 11, 1, 10, 3, tzinfo=UTC)
    built = issue.build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    correction = correct(built, analysis, [], settings, PERMISSIONS)
    assert correction.by_maintainer


def test_only_a_strangers_objection_is_no_maintainers_correction(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=(), duplicate_of=7).comment(DAVE, "not the same")
    built = issue.build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    correction = correct(built, analysis, [], settings, PERMISSIONS)
    assert correction.is_corrected and not correction.by_maintainer


def test_bot_and_assistant_comments_do_not_object(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).comment(CI_BOT, "CI passed").comment(ASSISTANT, "Thanks!").comment(
        None, "x"
    )
    assert outcome(issue, settings) is DuplicateOutcome.OPEN


def test_comment_before_the_notice_does_not_object(issue: Any, settings: RuleSettings) -> None:
    issue.comment(DAVE, "more details").analysis(duplicate_of=7)
    assert outcome(issue, settings) is DuplicateOutcome.OPEN


def test_unknown_permission_does_not_count(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(duplicate_of=7).comment(DAVE, "different!")
    assert outcome(issue, settings, permissions={}) is DuplicateOutcome.OPEN


def thumbs_down(
    issue: Any, settings: RuleSettings, reactions: list[Reaction], permissions: Any = None
) -> int:
    built = issue.analysis().build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    return correct(
        built, analysis, reactions, settings, PERMISSIONS if permissions is None else permissions
    ).thumbs_down


def test_thumbs_down_counts_only_pushers_once_each(issue: Any, settings: RuleSettings) -> None:
    reactors = [ALICE, BOB, BOB, CAROL, DAVE, CI_BOT, None, ASSISTANT, Actor(login="erin")]
    reactions = [Reaction(actor=actor) for actor in reactors]
    assert thumbs_down(issue, settings, reactions) == 2


def test_bot_with_write_permission_is_still_no_person(issue: Any, settings: RuleSettings) -> None:
    assert thumbs_down(issue, settings, [Reaction(actor=CI_BOT)], {"ci-bot": Permission.WRITE}) == 0


def test_correct_combines_every_rule(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",), duplicate_of=7).label(ASSISTANT, "bug").label(ALICE, "bug", added=False)
    issue.comment(DAVE, "not a duplicate")
    built = issue.build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    result = correct(built, analysis, [Reaction(actor=BOB)], settings, PERMISSIONS)
    assert result.labels_removed == ("bug",)
    assert result.duplicate is not None and result.duplicate.outcome is DuplicateOutcome.OBJECTED
    assert result.thumbs_down == 1
    assert result.is_corrected


LATER = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def dated(issue: Any, settings: RuleSettings, reactions: list[Reaction]) -> datetime | None:
    built = issue.build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    return correct(built, analysis, reactions, settings, PERMISSIONS).corrected_at


def test_date_is_the_deciding_label_event_not_a_later_undone_change(
    issue: Any, settings: RuleSettings
) -> None:
    # 10:01 analysis, 10:02 bug applied, 10:03 alice removes bug (decides), 10:04/10:05 enhancement
    # added and removed again (undone: no correction), 10:06 a maintainer's plain comment.
    issue.analysis(labels=("bug",)).label(ASSISTANT, "bug").label(ALICE, "bug", added=False)
    issue.label(CAROL, "enhancement").label(CAROL, "enhancement", added=False).comment(ALICE, "ok")
    assert dated(issue, settings, []) == datetime(2026, 11, 1, 10, 3, tzinfo=UTC)


def test_date_of_a_relabelled_removal_is_the_last_removal(issue: Any, settings: RuleSettings) -> None:
    # Removed (10:03), put back (10:04), removed again (10:05): the last human event decides.
    issue.analysis(labels=("bug",)).label(ALICE, "bug", added=False).label(ALICE, "bug")
    issue.label(ALICE, "bug", added=False)
    assert dated(issue, settings, []) == datetime(2026, 11, 1, 10, 4, tzinfo=UTC)


def test_date_is_the_objection_to_a_duplicate_notice(issue: Any, settings: RuleSettings) -> None:
    # 10:01 notice, 10:02 the reporter objects, 10:03 a maintainer's plain comment (no objection).
    issue.analysis(labels=(), duplicate_of=7).comment(DAVE, "not the same").comment(ALICE, "ok")
    assert dated(issue, settings, []) == datetime(2026, 11, 1, 10, 2, tzinfo=UTC)


def test_date_is_the_latest_counted_thumbs_down_only(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",)).label(ALICE, "bug", added=False)  # removed at 10:02
    counted = Reaction(actor=BOB, at=LATER)
    uncounted = Reaction(actor=CAROL, at=LATER + timedelta(days=3))  # TRIAGE: no push access
    assert dated(issue, settings, [counted, uncounted]) == LATER
    assert dated(issue, settings, [uncounted]) == datetime(2026, 11, 1, 10, 2, tzinfo=UTC)


def test_uncorrected_issue_has_no_date(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=("bug",)).label(ASSISTANT, "bug").comment(ALICE, "thanks")
    assert dated(issue, settings, [Reaction(actor=DAVE, at=LATER)]) is None


def test_confirmed_or_open_duplicate_alone_is_no_correction(issue: Any, settings: RuleSettings) -> None:
    issue.analysis(labels=(), duplicate_of=7).close(ALICE, "DUPLICATE")
    built = issue.build()
    analysis = first_analysis(built, settings)
    assert analysis is not None
    assert not correct(built, analysis, [], settings, PERMISSIONS).is_corrected


def test_vocabulary_declares_list_items_at_any_depth_but_not_in_code() -> None:
    from corrections.rules.vocabulary import parse_vocabulary

    text = (
        "# Labels\n\n- `bug`: broken\n  * `crash`: aborts\n    + `hang`: stuck\n1. `docs`: words\n"
        "Not a list `question`\n```\n- `fenced`: no\n```\n- `Bug`: repeated, first wins\n- no backticks\n"
    )
    assert parse_vocabulary(text).names == ("bug", "crash", "hang", "docs")


def test_vocabulary_is_read_as_commonmark() -> None:
    """Retired labels (HTML comments), `~~~` fences, indented code and HTML blocks declare nothing;
    `+`, `1.` and `1)` items at any depth do (a line-by-line reader got each of these wrong)."""
    from corrections.rules.vocabulary import parse_vocabulary

    text = (
        "# Labels\n\n"
        "- `bug`: broken\n"
        "<!--\n- `wontfix`: retired\n-->\n\n"
        "<!-- - `stale`: retired on one line -->\n\n"
        "~~~\n- `tilde`: fenced\n~~~\n\n"
        "Some text:\n\n"
        "        - `indented`: indented code, not a list\n\n"
        "<div>\n- `inside-html`: an HTML block's own lines are raw\n</div>\n\n"
        "+ `plus`: a plus item\n"
        "\n1) `paren`: ordered with a parenthesis\n"
        "   1. `nested-ordered`: ordered inside ordered\n"
        "\n> - `quoted`: a list item inside a quote is still a list item\n"
        "\n- plain text first, then `late`: not declared\n"
    )
    assert parse_vocabulary(text).names == ("bug", "plus", "paren", "nested-ordered", "quoted")
