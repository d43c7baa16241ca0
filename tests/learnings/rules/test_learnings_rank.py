"""Ranking: matching globs first (most specific, then most recent, then id), general ones after."""

from __future__ import annotations

import itertools
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from learnings.rules.model import Learning
from learnings.rules.rank import rank
from learnings.rules.staleness import stale

MakeLearning = Callable[..., Learning]


def ids(learnings: list[Learning]) -> list[str]:
    return [learning.id for learning in learnings]


def test_matching_learnings_come_first_most_specific_glob_first(make_learning: MakeLearning) -> None:
    store = [
        make_learning("l_gen1", "general, newest", updated="2026-09-01T00:00:00Z"),
        make_learning("l_star", "everything", paths=["**"], updated="2026-08-01T00:00:00Z"),
        make_learning("l_api1", "api", paths=["src/api/**"]),
        make_learning("l_file", "one file", paths=["src/api/users.py"]),
        make_learning("l_pyth", "python", paths=["**/*.py"], updated="2026-08-01T00:00:00Z"),
        make_learning("l_docs", "docs only", paths=["docs/**"]),
        make_learning("l_gen2", "general, older"),
        make_learning("l_gone", "retired", status="retired"),
    ]
    assert ids(rank(store, ["src/api/users.py", "README.md"])) == [
        "l_file",
        "l_api1",
        "l_pyth",
        "l_star",
        "l_gen1",
        "l_gen2",
    ]


def test_the_most_specific_matching_glob_of_a_learning_counts(make_learning: MakeLearning) -> None:
    store = [
        make_learning("l_aaaa", "wide and exact", paths=["**", "docs/index.md"]),
        make_learning("l_bbbb", "api", paths=["src/api/**"], updated="2026-09-01T00:00:00Z"),
    ]
    assert ids(rank(store, ["src/api/x.py", "docs/index.md"])) == ["l_aaaa", "l_bbbb"]
    assert ids(rank(store, ["src/api/x.py"])) == ["l_bbbb", "l_aaaa"]


def test_equal_specificity_goes_by_recency_then_id(make_learning: MakeLearning) -> None:
    store = [
        make_learning("l_bbbb", "b", paths=["src/**"]),
        make_learning("l_aaaa", "a", paths=["src/**"]),
        make_learning("l_cccc", "c", paths=["src/**"], updated="2026-03-01T00:00:00Z"),
    ]
    assert ids(rank(store, ["src/x"])) == ["l_cccc", "l_aaaa", "l_bbbb"]


def test_without_changed_paths_general_learnings_come_before_path_ones(make_learning: MakeLearning) -> None:
    store = [
        make_learning("l_path", "path", paths=["src/**"], updated="2026-09-01T00:00:00Z"),
        make_learning("l_gen1", "general"),
        make_learning("l_old1", "older path", paths=["docs/**"], updated="2025-01-01T00:00:00Z"),
    ]
    assert ids(rank(store, [])) == ["l_gen1", "l_path", "l_old1"]


def test_stale_learnings_match_no_existing_file(make_learning: MakeLearning) -> None:
    store = [
        make_learning("l_live", "live", paths=["src/**", "gone/**"]),
        make_learning("l_gone", "gone", paths=["gone/**", "old.py"]),
        make_learning("l_gen1", "general"),
        make_learning("l_retd", "retired", paths=["gone/**"], status="retired"),
    ]
    assert stale(store, ["src/a.py", "README.md"]) == {"l_gone"}


GLOBS = ["**", "src/**", "src/api/**", "src/api/users.py", "**/*.py", "docs/*.md", "tests/**", "src/*/x.py"]
PATHS = ["src/api/users.py", "src/api/x.py", "src/core/x.py", "docs/a.md", "tests/t.py", "README.md"]
DATES = ["2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2026-02-01T00:00:00+01:00"]


@st.composite
def stores(draw: st.DrawFn) -> list[Learning]:
    count = draw(st.integers(min_value=0, max_value=25))
    idents = draw(
        st.lists(st.from_regex(r"l_[0-9a-z]{4}", fullmatch=True), min_size=count, max_size=count, unique=True)
    )
    return [
        Learning.model_validate(
            {
                "v": 1,
                "id": ident,
                "scope": "repo",
                "kind": "note",
                "text": f"learning {ident}",
                "paths": tuple(draw(st.lists(st.sampled_from(GLOBS), max_size=3, unique=True))),
                "createdAt": draw(st.sampled_from(DATES)),
                "updatedAt": draw(st.sampled_from(DATES)),
                "status": draw(st.sampled_from(["active", "active", "retired"])),
            },
            strict=False,
        )
        for ident in idents
    ]


@settings(max_examples=150, deadline=None)
@given(stores(), st.lists(st.sampled_from(PATHS), max_size=4), st.randoms(use_true_random=False))
def test_ranking_is_total_and_stable_under_any_input_order(
    store: list[Learning], changed: list[str], random: object
) -> None:
    shuffled = list(store)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    ranked = rank(store, changed)
    assert rank(shuffled, changed) == ranked
    assert rank(list(reversed(store)), list(reversed(changed))) == ranked
    assert len(set(ids(ranked))) == len(ranked)
    assert all(learning.active for learning in ranked)
    general = [learning.general for learning in ranked]
    if changed:
        assert general == sorted(general)
    else:
        assert general == sorted(general, reverse=True)
    for earlier, later in itertools.pairwise(ranked):
        if earlier.general == later.general and (earlier.general or not changed):
            assert (-earlier.updatedAt.timestamp(), earlier.id) < (-later.updatedAt.timestamp(), later.id)
