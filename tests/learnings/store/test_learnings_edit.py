"""Adding (deduplicated), removing (retiring) and importing (merging) learnings."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from learnings.rules.globs import GlobError
from learnings.rules.model import Learning, Source
from learnings.store.edit import EditError, add, merge, new_id, normalize, remove

MakeLearning = Callable[..., Learning]

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
T1 = T0 + timedelta(days=1)


def test_normalize_ignores_case_white_space_and_punctuation() -> None:
    assert normalize("  Run `make test`, then  PUSH! ") == normalize("run make test then push")
    assert normalize("\uff26\uff55\uff4c\uff4c width") == normalize("full width")
    assert normalize("run make test") != normalize("run make tests")


def test_add_creates_an_active_learning_with_a_short_id() -> None:
    learnings, learning = add([], "Integration tests need TEST_DB_URL", ["test/**"], None, T0)
    assert learnings == [learning]
    assert learning.id.startswith("l_")
    assert len(learning.id) == 6
    assert (learning.scope, learning.kind, learning.status) == ("path", "note", "active")
    assert learning.createdAt == learning.updatedAt == T0
    general = add([], "Prefer small pull requests", [], None, T0)[1]
    assert general.scope == "repo"


def test_the_same_text_gets_the_same_id_in_any_store() -> None:
    first = add([], "Prefer small pull requests", [], None, T0)[1]
    other_store = add(
        add([], "something else", [], None, T0)[0], "prefer small pull-requests.", [], None, T1
    )[1]
    assert first.id == other_store.id


def test_near_copy_updates_the_existing_learning() -> None:
    learnings, first = add([], "Integration tests need TEST_DB_URL", ["test/**"], None, T0)
    learnings, second = add(learnings, "integration tests need test_db_url!", ["e2e/**", "test/**"], None, T1)
    assert len(learnings) == 1
    assert second.id == first.id
    assert second.text == first.text
    assert second.paths == ("test/**", "e2e/**")
    assert second.createdAt == T0
    assert second.updatedAt == T1


def test_a_general_learning_stays_general_when_merged_with_paths() -> None:
    learnings, _ = add([], "Prefer small pull requests", [], None, T0)
    learnings, merged = add(learnings, "prefer small pull requests", ["src/**"], None, T1)
    assert merged.paths == ()
    assert merged.scope == "repo"


def test_adding_a_retired_learning_again_reactivates_it() -> None:
    learnings, first = add([], "Use the staging database", [], None, T0)
    learnings, _ = remove(learnings, first.id, T0)
    learnings, again = add(learnings, "use the staging database", [], None, T1)
    assert len(learnings) == 1
    assert again.status == "active"


def test_suppressions_of_different_categories_are_different_learnings() -> None:
    learnings, one = add([], "false positive", ["src/db/**"], "sql-injection", T0, kind="suppression")
    learnings, two = add(learnings, "false positive", ["src/db/**"], "xss", T0, kind="suppression")
    learnings, note = add(learnings, "false positive", [], None, T0)
    assert len({one.id, two.id, note.id}) == 3
    assert len(learnings) == 3


def test_ids_are_lengthened_on_collision() -> None:
    key = "note\0prefer small pull requests"
    short = new_id(key, frozenset())
    longer = new_id(key, {short})
    assert len(short) == 6
    assert longer.startswith(short)
    assert len(longer) == 7


def test_add_rejects_bad_input() -> None:
    with pytest.raises(EditError, match="letters or digits"):
        add([], " ... !!! ", [], None, T0)
    with pytest.raises(EditError, match="at most 500"):
        add([], "x" * 501, [], None, T0)
    with pytest.raises(GlobError, match="unclosed"):
        add([], "text", ["src/[a"], None, T0)
    with pytest.raises(ValidationError, match="suppression needs a category"):
        add([], "text", [], None, T0, kind="suppression")


def test_add_keeps_text_on_one_visible_line() -> None:
    learning = add([], "two\nlines\u200b here", [], None, T0)[1]
    assert learning.text == "two lines here"


def test_add_records_the_source() -> None:
    source = Source(issue=142, comment=98123, accepted_by="bob")
    assert add([], "text", [], None, T0, source=source)[1].source == source


def test_remove_retires_and_never_erases(make_learning: MakeLearning) -> None:
    existing = [make_learning("l_aaaa", "one"), make_learning("l_bbbb", "two")]
    learnings, retired = remove(existing, "l_aaaa", T1)
    assert [learning.id for learning in learnings] == ["l_aaaa", "l_bbbb"]
    assert retired.status == "retired"
    assert retired.updatedAt == T1
    assert remove(learnings, "l_aaaa", T1 + timedelta(days=1)) == (learnings, retired)
    with pytest.raises(EditError, match="unknown learning id `l_zzzz`"):
        remove(learnings, "l_zzzz", T1)


def test_merge_deduplicates_like_add(make_learning: MakeLearning) -> None:
    mine = [make_learning("l_aaaa", "Run make test", paths=["src/**"])]
    theirs = [
        make_learning("l_0000", "run MAKE test.", paths=["docs/**"]),
        make_learning("l_aaaa", "a different learning with my id"),
        make_learning("l_cccc", "a new one", updated="2025-05-05T00:00:00Z"),
        make_learning("l_dddd", "retired over there", status="retired"),
    ]
    learnings, added, updated = merge(mine, theirs, T1)
    assert (added, updated) == (3, 1)
    assert learnings[0].paths == ("src/**", "docs/**")
    assert learnings[0].updatedAt == T1
    assert learnings[1].text == "a different learning with my id"
    assert learnings[1].id != "l_aaaa"
    assert learnings[2] == theirs[2]
    assert learnings[3].status == "retired"
    again, added, updated = merge(learnings, theirs, T1 + timedelta(days=1))
    assert (added, updated) == (0, 0)
    assert again == learnings


def test_a_retired_incoming_learning_does_not_retire_mine(make_learning: MakeLearning) -> None:
    mine = [make_learning("l_aaaa", "keep me")]
    learnings, added, updated = merge(mine, [make_learning("l_bbbb", "Keep me!", status="retired")], T1)
    assert learnings == mine
    assert (added, updated) == (0, 0)
