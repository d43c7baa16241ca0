"""Pull request reviews as GitHub's schema has them: `PullRequest.reviews`, `reviewThreads`,
`PullRequestReviewThread.comments`, review comments with database ids above 2^31 (read through
`fullDatabaseId`), replies after a thread's first comment, reactions on both, and the state dump."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from emulator.world import WorldError, parse_world
from tests.emulation import Emulators
from tests.emulator.conftest import http

RECORDINGS = Path(__file__).resolve().parents[1] / "conformance" / "recordings"
FINDING = 'String-built query. <!-- assistant:finding {"v": 1} -->'
REVIEW: dict[str, Any] = {
    "id": 2600000001,
    "author": "triage-assistant",
    "state": "COMMENTED",
    "at": "2026-11-05T10:00:00Z",
    "body": "Two findings.",
    "threads": [
        {
            "path": "src/db.py",
            "line": 12,
            "comments": [
                {
                    "id": 2600000101,
                    "author": "triage-assistant",
                    "at": "2026-11-05T10:00:00Z",
                    "body": FINDING,
                },
                {
                    "id": 2600000102,
                    "author": "bob",
                    "at": "2026-11-05T11:00:00Z",
                    "body": "/assistant ignore-rule",
                },
            ],
        },
        {
            "path": "src/app.py",
            "line": 3,
            "comments": [
                {"id": 2600000103, "author": "triage-assistant", "at": "2026-11-05T10:00:00Z", "body": "x"}
            ],
        },
    ],
}
BOB_REVIEW = {
    "id": 2600000002,
    "author": "bob",
    "state": "APPROVED",
    "at": "2026-11-06T09:00:00Z",
    "body": "/assistant remember run the migrations first",
}

QUERY = """query($n: Int!) { repository(owner: "octo", name: "demo") { pullRequest(number: $n) {
  updatedAt
  reviews(first: 10) { totalCount nodes { __typename id fullDatabaseId state body author { login }
    comments(first: 10) { totalCount } } }
  approved: reviews(first: 10, states: [APPROVED]) { nodes { fullDatabaseId } }
  reviewThreads(first: 10) { totalCount nodes { __typename id path line isResolved
    comments(first: 10) { totalCount nodes { __typename id fullDatabaseId body author { login }
      replyTo { fullDatabaseId } pullRequestReview { fullDatabaseId } pullRequest { number }
      reactionGroups { content viewerHasReacted } } } } } } } }"""


@pytest.fixture
def reviewed(world: dict[str, Any]) -> dict[str, Any]:
    """The small world's pull request #4 with two reviews."""
    pull = next(p for p in world["pull_requests"] if p["number"] == 4)
    pull["reviews"] = [REVIEW, BOB_REVIEW]
    return world


def _gql(url: str, query: str, variables: dict[str, Any], token: str = "t0ken") -> Any:
    reply = http("POST", url, {"query": query, "variables": variables}, token=token)
    assert reply.status == 200, reply.body
    body = reply.json()
    assert "errors" not in body, body
    return body["data"]


def test_reviews_threads_and_comments_are_served_as_the_schema_has_them(
    reviewed: dict[str, Any], emulate: Emulators
) -> None:
    server = emulate(reviewed)
    pull = _gql(server.url, QUERY, {"n": 4})["repository"]["pullRequest"]
    reviews = pull["reviews"]["nodes"]
    # bob's reply is also a bodyless COMMENTED review of his (Maxsky5/openducktor#786), in time order.
    assert [(r["__typename"], r["fullDatabaseId"], r["state"], r["author"]["login"]) for r in reviews] == [
        ("PullRequestReview", "2600000001", "COMMENTED", "triage-assistant"),
        ("PullRequestReview", "102600000102", "COMMENTED", "bob"),
        ("PullRequestReview", "2600000002", "APPROVED", "bob"),
    ]
    assert reviews[0]["comments"]["totalCount"] == 2 and reviews[2]["body"].startswith("/assistant remember")
    assert reviews[1]["body"] == "" and reviews[1]["comments"]["totalCount"] == 1
    assert pull["approved"]["nodes"] == [{"fullDatabaseId": "2600000002"}]
    threads = pull["reviewThreads"]["nodes"]
    assert [(t["path"], t["line"], t["comments"]["totalCount"]) for t in threads] == [
        ("src/db.py", 12, 2),
        ("src/app.py", 3, 1),
    ]
    first, reply = threads[0]["comments"]["nodes"]
    assert first["__typename"] == "PullRequestReviewComment" and first["replyTo"] is None
    assert reply["replyTo"] == {"fullDatabaseId": "2600000101"}
    assert reply["pullRequestReview"] == {"fullDatabaseId": "102600000102"} and reply["pullRequest"] == {
        "number": 4
    }
    # A review (and each review comment) moves the pull request's updatedAt.
    assert pull["updatedAt"] >= "2026-11-06T09:00:00Z"


def test_reactions_on_review_comments_and_reviews_are_the_viewers(
    reviewed: dict[str, Any], emulate: Emulators
) -> None:
    server = emulate(reviewed)
    pull = _gql(server.url, QUERY, {"n": 4})["repository"]["pullRequest"]
    reply = pull["reviewThreads"]["nodes"][0]["comments"]["nodes"][1]
    react = "mutation($s: ID!) { addReaction(input: {subjectId: $s, content: ROCKET}) { reaction { content } subject { id } } }"
    for subject in (reply["id"], pull["reviews"]["nodes"][2]["id"]):  # [1] is bob's reply's review
        answer = _gql(server.url, react, {"s": subject})["addReaction"]
        assert answer == {"reaction": {"content": "ROCKET"}, "subject": {"id": subject}}
    again = _gql(server.url, QUERY, {"n": 4})["repository"]["pullRequest"]
    groups = again["reviewThreads"]["nodes"][0]["comments"]["nodes"][1]["reactionGroups"]
    assert {g["content"] for g in groups if g["viewerHasReacted"]} == {"ROCKET"}
    by_id = _gql(server.url, "query($i: [ID!]!) { nodes(ids: $i) { __typename id } }", {"i": [reply["id"]]})
    assert by_id["nodes"] == [{"__typename": "PullRequestReviewComment", "id": reply["id"]}]
    state = server.state()
    dumped = next(p for p in state["pull_requests"] if p["number"] == 4)["reviews"]
    assert dumped[0]["threads"][0]["comments"][1]["reactions"][0]["content"] == "ROCKET"
    assert dumped[1]["reactions"][0]["content"] == "ROCKET"
    parse_world(state)  # the dump is a world again


def test_review_ids_are_unique_with_comment_ids_and_only_pull_requests_have_reviews(
    reviewed: dict[str, Any],
) -> None:
    pull = next(p for p in reviewed["pull_requests"] if p["number"] == 4)
    pull["reviews"][1] = {**BOB_REVIEW, "id": 2600000102}
    with pytest.raises(WorldError, match="comment id 2600000102 is used twice"):
        parse_world(reviewed)
    pull["reviews"] = [REVIEW]
    reviewed["issues"][0]["reviews"] = [BOB_REVIEW]
    with pytest.raises(WorldError, match="only pull requests have them"):
        parse_world(reviewed)


def test_each_reply_is_a_review_of_its_own_as_github_answers(
    reviewed: dict[str, Any], emulate: Emulators
) -> None:
    """GitHub: two replies by one person in one thread are review comments of two reviews of their
    own (`pull_request_review_id` 355598622 and 355598624, both `in_reply_to_id` the thread's first:
    tests/conformance/recordings/review_replies.json), each a bodyless COMMENTED review by the
    replier (Maxsky5/openducktor#786). Before, both replies were comments of the finding's review."""
    recorded = json.loads((RECORDINGS / "review_replies.json").read_text(encoding="utf-8"))["response"]
    [first_reply, second_reply] = recorded["replies"]
    assert first_reply["pull_request_review_id"] != second_reply["pull_request_review_id"]
    thread = REVIEW["threads"][0]
    again = {"id": 2600000104, "author": "bob", "at": "2026-11-05T11:00:00Z", "body": "and again"}
    pull_request = next(p for p in reviewed["pull_requests"] if p["number"] == 4)
    pull_request["reviews"][0] = {
        **REVIEW,
        "threads": [{**thread, "comments": [*thread["comments"], again]}, *REVIEW["threads"][1:]],
    }
    server = emulate(reviewed)
    pull = _gql(server.url, QUERY, {"n": 4})["repository"]["pullRequest"]
    first, *replies = pull["reviewThreads"]["nodes"][0]["comments"]["nodes"]
    assert [reply["replyTo"] for reply in replies] == [{"fullDatabaseId": "2600000101"}] * 2
    own = [reply["pullRequestReview"]["fullDatabaseId"] for reply in replies]
    assert len(set(own)) == 2 and first["pullRequestReview"] == {"fullDatabaseId": "2600000001"}
    by_id = {review["fullDatabaseId"]: review for review in pull["reviews"]["nodes"]}
    for key in own:
        assert by_id[key]["state"] == "COMMENTED" and by_id[key]["body"] == ""
        assert by_id[key]["author"] == {"login": "bob"} and by_id[key]["comments"]["totalCount"] == 1
    # The finding's review holds the thread's first comments only, one a thread it started.
    assert by_id["2600000001"]["comments"]["totalCount"] == 2
    found = _gql(
        server.url,
        "query($i: [ID!]!) { nodes(ids: $i) { ... on PullRequestReview { fullDatabaseId body } } }",
        {"i": [by_id[own[0]]["id"]]},
    )
    assert found["nodes"] == [{"fullDatabaseId": own[0], "body": ""}]
