"""The scan state on plain models: what one details round's answer changes, and what is asked next.

No server: `Reading` is pure, driven by the answers the job feeds in (end-to-end behaviour is in
tests/reliability/test_fault_matrix.py).
"""

from __future__ import annotations

from typing import Any

from corrections.read.reading import Reading
from corrections.rules.settings import RuleSettings
from queries.fetch import DetailsResult
from queries.models import CommentReactions, IssueNode, TimelinePage
from queries.requests import DetailsRequest

ANALYSIS_ID = "IC_kwDOAnalysis"
MARKER = '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": [], "duplicate_of": null} -->'


def _comment(node_id: str, login: str, typename: str, body: str, minute: int) -> dict[str, Any]:
    return {
        "__typename": "IssueComment",
        "id": node_id,
        "fullDatabaseId": "2400000001",
        "createdAt": f"2026-10-01T10:{minute:02d}:00Z",
        "body": body,
        "author": {"__typename": typename, "login": login},
    }


def _issue(number: int) -> IssueNode:
    """An issue whose first timeline page holds the analysis and a person's comment, and continues."""
    return IssueNode.model_validate(
        {
            "id": f"I_{number}",
            "number": number,
            "title": "crash on start",
            "body": "",
            "createdAt": "2026-10-01T10:00:00Z",
            "updatedAt": "2026-10-02T10:00:00Z",
            "state": "OPEN",
            "stateReason": None,
            "author": {"__typename": "User", "login": "reporter"},
            "timelineItems": {
                "totalCount": 250,
                "pageInfo": {"hasNextPage": True, "endCursor": "after-page-1"},
                "nodes": [
                    _comment(ANALYSIS_ID, "triage-assistant", "Bot", MARKER, 1),
                    _comment("IC_kwDOPerson", "alice", "User", "not a bug", 2),
                ],
            },
        }
    )


def _reading() -> Reading:
    reading = Reading(RuleSettings(), max_analyzed=1)
    reading.add_issue_page((_issue(7),))
    return reading


def test_the_first_round_asks_the_timeline_the_reactions_and_the_people_who_acted() -> None:
    asked = _reading().next_request()
    assert asked.timelines == ((7, "after-page-1"),)
    assert asked.analysis_ids == (ANALYSIS_ID,)
    assert asked.logins == ("alice",)


def test_parts_github_did_not_answer_are_missing_and_not_asked_again() -> None:
    reading = _reading()
    asked = reading.next_request()
    switched = reading.add_details(
        asked, DetailsResult(permissions={"alice": "WRITE"}, failed=["reactions", "timelines"])
    )
    assert not switched
    assert reading.missing == {"reactions", "timelines"}
    assert reading.issue(7).cursor is None  # the timeline stops where GitHub stopped answering
    assert reading.next_request().empty
    assert reading.known_permissions() == {"alice": "WRITE"}
    note = reading.note()
    assert note is not None and "partial answer" in note


def test_a_forbidden_collaborator_list_switches_permissions_to_rest_once() -> None:
    reading = _reading()
    asked = reading.next_request()
    assert reading.add_details(asked, DetailsResult(permissions_forbidden=True))
    assert reading.permissions_via_rest
    again = reading.next_request()
    assert again.logins == ()  # GraphQL is not asked again: the job asks REST
    assert not reading.add_details(again, DetailsResult(permissions_forbidden=True))
    reading.add_rest_permissions(["alice"], {}, ["alice"], {"rate limited"})
    assert reading.missing == {"permissions"}
    note = reading.note()
    assert note is not None and "rate limited" in note


def test_a_round_github_did_not_answer_leaves_what_it_asked_missing() -> None:
    reading = _reading()
    reading.details_failed(reading.next_request(), "timeout")
    assert reading.missing == {"bodies", "permissions", "reactions", "timelines"}
    reading.details_failed(DetailsRequest(logins=("alice",)), "timeout")
    assert reading.missing == {"bodies", "permissions", "reactions", "timelines"}


def test_the_state_it_hands_out_is_a_copy() -> None:
    reading = _reading()
    reading.add_details(reading.next_request(), DetailsResult(permissions={"alice": "READ"}))
    reading.known_permissions().clear()
    reading.reactions_on(ANALYSIS_ID).append(None)  # type: ignore[arg-type]
    assert reading.known_permissions() == {"alice": "READ"}
    assert reading.reactions_on(ANALYSIS_ID) == []


def _timeline(cursor: str | None, *, more: bool = True) -> TimelinePage:
    return TimelinePage.model_validate(
        {
            "totalCount": 250,
            "pageInfo": {"hasNextPage": more, "endCursor": cursor},
            "nodes": [_comment("IC_kwDOLater", "bob", "User", "same here", 3)],
        }
    )


def _reactions(cursor: str | None, *, more: bool = True) -> CommentReactions:
    return CommentReactions.model_validate(
        {
            "id": ANALYSIS_ID,
            "reactions": {
                "totalCount": 300,
                "pageInfo": {"hasNextPage": more, "endCursor": cursor},
                "nodes": [{"content": "THUMBS_DOWN", "createdAt": "2026-10-01T11:00:00Z",
                           "user": {"__typename": "User", "login": "alice"}}],
            },
        }
    )  # fmt: skip


def test_a_timeline_cursor_given_back_ends_the_timeline_without_reading_the_page_twice() -> None:
    """The one paging rule (queries.pagination.advanced) holds across details rounds too."""
    reading = _reading()
    before = len(reading.issue(7).issue.events)
    reading.add_details(reading.next_request(), DetailsResult(timelines={7: _timeline("after-page-2")}))
    assert len(reading.issue(7).issue.events) == before + 1
    asked = reading.next_request()
    assert asked.timelines == ((7, "after-page-2"),)
    reading.add_details(asked, DetailsResult(timelines={7: _timeline("after-page-2")}))
    assert len(reading.issue(7).issue.events) == before + 1  # not the same events twice
    assert reading.issue(7).cursor is None and reading.next_request().timelines == ()
    assert reading.missing == {"timelines"}
    note = reading.note()
    assert note is not None and "unreadable response" in note


def test_a_timeline_page_with_more_but_no_cursor_is_kept_and_ends_the_timeline() -> None:
    reading = _reading()
    before = len(reading.issue(7).issue.events)
    reading.add_details(reading.next_request(), DetailsResult(timelines={7: _timeline(None)}))
    assert len(reading.issue(7).issue.events) == before + 1
    assert reading.issue(7).cursor is None and reading.missing == {"timelines"}


def test_a_reaction_cursor_given_back_ends_the_reactions_without_counting_them_twice() -> None:
    reading = _reading()
    reading.add_details(reading.next_request(), DetailsResult(reactions={ANALYSIS_ID: _reactions("r-1")}))
    asked = reading.next_request()
    assert asked.reactions == ((ANALYSIS_ID, "r-1"),)
    reading.add_details(asked, DetailsResult(reactions={ANALYSIS_ID: _reactions("r-1")}))
    assert len(reading.reactions_on(ANALYSIS_ID)) == 1
    assert reading.next_request().reactions == ()
    assert reading.missing == {"reactions"}


def test_pages_that_end_or_move_on_leave_nothing_missing() -> None:
    reading = _reading()
    reading.add_details(
        reading.next_request(),
        DetailsResult(
            timelines={7: _timeline(None, more=False)}, reactions={ANALYSIS_ID: _reactions(None, more=False)}
        ),
    )
    assert reading.missing == frozenset()
    assert reading.issue(7).issue.timeline_complete


def test_only_the_windows_bodies_are_asked_and_in_the_round_that_follows() -> None:
    """Issue 26: the scan page asked `body` of all its issues though a third enter the window."""
    reading = Reading(RuleSettings(), max_analyzed=1)
    outside = IssueNode.model_validate(
        {
            **_issue(8).model_dump(by_alias=True),
            "timelineItems": {
                "totalCount": 0,
                "pageInfo": {"hasNextPage": False, "endCursor": None},
                "nodes": [],
            },
        }
    )
    reading.add_issue_page((_issue(7), outside))
    asked = reading.next_request()
    assert asked.bodies == ("I_7",), "the window's issue, not #8 (no analysis)"
    assert asked.analysis_ids, "beside the 👎: the round that follows the scan anyway"
    reading.add_details(asked, DetailsResult(bodies={"I_7": "It crashes on start."}))
    assert reading.issue(7).issue.body == "It crashes on start."
    assert reading.next_request().bodies == (), "asked once"


def test_the_scan_page_asks_no_body() -> None:
    """The scan's issues (IssueFirstPage) carry no body; only the issue being analysed does."""
    from graphql import FieldNode, FragmentDefinitionNode, Visitor, visit

    from queries.documents import operation

    document = operation("CorrectionWindow").document
    [page] = [
        node
        for node in document.definitions
        if isinstance(node, FragmentDefinitionNode) and node.name.value == "IssueFirstPage"
    ]
    found: list[str] = []

    class Fields(Visitor):
        def enter_field(self, node: FieldNode, *_: Any) -> None:
            found.append(node.name.value)

    visit(page, Fields())
    assert "body" not in found and "title" in found


def test_a_round_of_more_than_100_nodes_is_several_requests() -> None:
    """GitHub refuses nodes(ids:) with more than 100 ids: a month's round is chunked, the logins,
    further reactions and paths asked once, with the first request."""
    round_ = DetailsRequest(
        analysis_ids=tuple(f"IC_{i}" for i in range(250)),
        timelines=tuple((i, f"c{i}") for i in range(120)),
        logins=("alice",),
        reactions=(("IC_0", "r0"),),
        paths=("HEAD:README.md",),
    )
    chunks = round_.chunks()
    assert [len(c.analysis_ids) for c in chunks] == [100, 100, 50]
    assert [len(c.timelines) for c in chunks] == [100, 20, 0]
    assert [c.logins for c in chunks] == [("alice",), (), ()]
    assert [len(c.reactions) + len(c.paths) for c in chunks] == [2, 0, 0]
    assert sum((c.analysis_ids for c in chunks), ()) == round_.analysis_ids
    small = DetailsRequest(analysis_ids=("IC_1",), logins=("bob",))
    assert small.chunks() == [small]


def test_a_reading_for_the_monthly_numbers_asks_no_bodies() -> None:
    for bodies, asked in ((True, ("I_7",)), (False, ())):
        reading = Reading(RuleSettings(), max_analyzed=1, bodies=bodies)
        reading.add_issue_page((_issue(7),))
        assert reading.next_request().bodies == asked
