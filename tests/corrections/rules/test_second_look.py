"""The second look's rule (issue 32), each case through its decision (`second_look.look`)."""

from __future__ import annotations

import pytest

from corrections.rules.analysis_marker import (
    LeftOut,
    MarkerError,
    analysis_marker,
    parse_left_out,
    read_payload,
)
from corrections.rules.second_look import (
    MIN_REMOVED,
    NEIGHBOURS,
    Look,
    Neighbour,
    TargetState,
    Why,
    explained,
    line,
    look,
    needs_target_state,
)

REPO = "octo/demo"
OPEN = TargetState(kind="issue", repository=REPO)


def near(number: int, removed: set[str] = frozenset(), kept: set[str] = frozenset()) -> Neighbour:  # type: ignore[assignment]
    return Neighbour(number, frozenset(removed), frozenset(kept))


def duplicate(state: TargetState | None, objected: frozenset[int] = frozenset(), target: int = 12) -> Look:
    return look(["bug"], target, repository=REPO, neighbours=[], objected=objected, state=state)


def test_an_open_unlocked_issue_of_this_repository_is_named() -> None:
    assert duplicate(OPEN) == Look(("bug",), 12, ())
    assert duplicate(TargetState(kind="issue", repository="Octo/Demo")).duplicate_of == 12


@pytest.mark.parametrize(
    ("state", "why"),
    [
        (TargetState(kind="missing"), Why.NOT_AN_ISSUE),
        (TargetState(kind="pull_request"), Why.NOT_AN_ISSUE),
        (TargetState(kind="issue", repository="octo/elsewhere"), Why.ELSEWHERE),
        (
            TargetState(kind="issue", repository=REPO, open=False, state_reason="DUPLICATE"),
            Why.CLOSED_AS_DUPLICATE,
        ),
        (TargetState(kind="issue", repository=REPO, open=False, state_reason="NOT_PLANNED"), Why.NOT_PLANNED),
        (TargetState(kind="issue", repository=REPO, open=False, state_reason="COMPLETED"), Why.CLOSED),
        (TargetState(kind="issue", repository=REPO, locked=True), Why.LOCKED),
        (None, Why.UNSEEN),  # GitHub could not say: left out
    ],
)
def test_a_target_that_is_not_an_open_issue_here_is_left_out(state: TargetState | None, why: Why) -> None:
    found = duplicate(state)
    assert (found.duplicate_of, found.labels) == (None, ("bug",))
    assert found.left_out == (LeftOut(why.value, duplicate_of=12),)


def test_an_objected_target_is_left_out_without_asking_github() -> None:
    assert not needs_target_state(12, {12})
    assert needs_target_state(12, {40}) and not needs_target_state(None, {12})
    assert duplicate(OPEN, objected=frozenset({12})).left_out == (LeftOut("objected", duplicate_of=12),)


def test_a_label_maintainers_removed_nearby_and_kept_on_none_is_left_out() -> None:
    neighbours = [near(1, {"performance"}), near(2), near(3, {"performance", "question"}), near(4), near(5)]
    found = look(
        ["bug", "performance", "question"],
        None,
        repository=REPO,
        neighbours=neighbours,
        objected=(),
        state=None,
    )
    assert found.labels == ("bug", "question")  # question: removed once, fewer than MIN_REMOVED
    assert found.left_out == (LeftOut("removed_nearby", label="performance", removed=2),)
    assert MIN_REMOVED == 2 and NEIGHBOURS == 5


def test_a_label_kept_on_one_neighbour_stays() -> None:
    neighbours = [near(1, {"question"}), near(2, {"question"}), near(3, kept={"question"})]
    found = look(["question"], None, repository=REPO, neighbours=neighbours, objected=(), state=None)
    assert found.labels == ("question",) and found.left_out == ()


def test_a_label_some_analysis_of_the_window_kept_is_never_held_back() -> None:
    # The loop's #9: a usage question's `question`, removed on two feature requests nearby.
    neighbours = [near(1, {"question"}), near(2, {"question"})]
    kept = look(["question"], None, repository=REPO, neighbours=neighbours, objected=(), state=None)
    assert kept.labels == ()
    found = look(
        ["question"],
        None,
        repository=REPO,
        neighbours=neighbours,
        objected=(),
        state=None,
        kept_in_window={"question"},
    )
    assert found.labels == ("question",) and found.left_out == ()


def test_only_the_nearest_neighbours_vote() -> None:
    far = [near(n) for n in range(1, NEIGHBOURS + 1)] + [near(9, {"docs"}), near(10, {"docs"})]
    found = look(["docs"], None, repository=REPO, neighbours=far, objected=(), state=None)
    assert found.labels == ("docs",)


def test_each_change_is_said_in_one_short_line_that_links_nothing() -> None:
    said = [
        line(LeftOut("objected", duplicate_of=12)),
        line(LeftOut("not_planned", duplicate_of=12)),
        line(LeftOut("unseen", duplicate_of=12)),
        line(LeftOut("removed_nearby", label="performance", removed=3)),
        line(LeftOut("a_newer_reason", duplicate_of=12)),
    ]
    assert said == [
        "I did not name `#12` as a duplicate: maintainers said it is a different problem.",
        "I did not name `#12` as a duplicate: it was closed as not planned.",
        "I did not name `#12` as a duplicate: I could not check that it is an open issue here.",
        "I did not add `performance`: maintainers removed it from 3 similar corrected issues and kept "
        "it on none.",
        "I did not name `#12` as a duplicate: it did not pass the second look.",
    ]
    assert all("\n" not in text and len(text) <= 120 for text in said)
    assert explained(LeftOut("locked", duplicate_of=7)) == (
        "the second look left out the duplicate notice naming #7 (it is locked)"
    )


def test_the_marker_records_what_was_left_out_and_reads_it_back() -> None:
    left = (LeftOut("objected", duplicate_of=12), LeftOut("removed_nearby", label="docs", removed=2))
    text = analysis_marker(["bug"], None, left_out=left)
    assert '"duplicate_of": null' in text
    assert (
        '"second_look": [{"duplicate_of": 12, "why": "objected"}, {"label": "docs", "why": "removed_nearby", "removed": 2}]'
        in text
    )
    payload, refused = read_payload(
        {
            "v": 1,
            "kind": "first",
            "labels": [],
            "duplicate_of": None,
            "second_look": [e.payload() for e in left],
        }
    )
    assert payload.left_out == left and refused is None
    # A marker without it is read as before; one that does not parse leaves the marker valid.
    assert read_payload({"v": 1, "kind": "first"})[0].left_out == ()
    payload, refused = read_payload({"v": 1, "kind": "first", "second_look": [{"why": "x y"}]})
    assert payload.left_out == () and refused is not None


@pytest.mark.parametrize(
    "value",
    [
        {},
        [1],
        [{"why": "objected"}],
        [{"why": "objected", "label": " x"}],
        [{"why": "objected", "label": "x", "removed": -1}],
        [{"why": "objected", "duplicate_of": 3}] * 200,
    ],
)
def test_a_second_look_entry_that_does_not_parse_is_refused(value: object) -> None:
    with pytest.raises(MarkerError):
        parse_left_out(value)
