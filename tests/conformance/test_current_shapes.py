"""Shapes of GitHub's current answers (tests/conformance/recordings/, each file naming its source
and licence) that the emulator must give too: same keys, `__typename`s and nullability."""

from __future__ import annotations

from typing import Any

from queries.classify import classify
from queries.errors import SecondaryRateLimited
from tests.conformance.test_recordings import post, recording, shape
from tests.emulation import Emulators, world_dict
from tests.emulator.conftest import SMALL_WORLD, http


def closed_as_duplicate_of_three() -> dict[str, Any]:
    """The small world with issue 2 closed as a duplicate of #3 (it was marked one of #1 before)."""
    world = world_dict(SMALL_WORLD)
    timeline = world["issues"][1]["timeline"]
    close = next(item for item in timeline if item["type"] == "closed")
    timeline.remove(close)
    timeline.append({**close, "duplicate_of": 3, "at": "2026-11-02T11:00:02Z"})
    return world


def test_a_close_as_a_duplicate_says_which_issue(emulate: Emulators) -> None:
    recorded = recording("closed_as_duplicate_of")
    server = emulate(closed_as_duplicate_of_three())
    answer = post(
        server,
        """{ repository(owner: "octo", name: "demo") { issue(number: 2) { stateReason
        duplicateOf { number } timelineItems(first: 5, itemTypes: [CLOSED_EVENT]) { nodes { __typename
        ... on ClosedEvent { stateReason duplicateOf { __typename ... on Issue { number } } } } } } } }""",
    )
    assert answer.status == recorded["status"]
    body = answer.json()
    assert shape(body) == shape(recorded["response"])
    assert body == recorded["response"]


def test_the_default_token_is_the_bot_github_actions(emulate: Emulators) -> None:
    """GitHub: a workflow's GITHUB_TOKEN posts as the Bot `github-actions` (REST `github-actions[bot]`,
    type Bot: recordings/workflow_token_author.json), GraphQL `Bot.login` without the suffix, and
    its `viewer { login }` is `github-actions[bot]` (release-plz/action#85). The small world
    names no viewer and does not list the account: the emulator's default token is that Bot
    (before, an unlisted `github-actions` read as a User, `viewer` `github-actions`)."""
    world = world_dict(SMALL_WORLD)
    assert "github-actions" not in world["users"] and "viewer" not in world
    world["issues"][0]["timeline"][0]["author"] = "github-actions"
    server = emulate(world)
    answer = post(
        server,
        """{ viewer { login } repository(owner: "octo", name: "demo") { issue(number: 1) {
        timelineItems(first: 1, itemTypes: [ISSUE_COMMENT]) { nodes { ... on IssueComment {
        author { __typename login } } } } } } }""",
    ).json()
    assert answer["data"]["viewer"] == {"login": "github-actions[bot]"}
    [node] = answer["data"]["repository"]["issue"]["timelineItems"]["nodes"]
    assert node["author"] == {"__typename": "Bot", "login": "github-actions"}
    recorded = recording("workflow_token_author")["response"]["author"]
    rest = http("GET", server.base_url + "/repos/octo/demo/issues/1/comments", token="t").json()
    assert {k: rest[0]["user"][k] for k in ("login", "type")} == {
        "login": recorded["login"],
        "type": recorded["type"],
    }


def test_the_content_creation_limit_is_a_limit_not_a_refusal() -> None:
    """GitHub answers the content-creation limit (80 a minute, 500 an hour) at HTTP 200 with an
    UNPROCESSABLE error "was submitted too quickly" (recordings/content_creation_limit.json,
    cli/cli#4801): the write path waits and tries again, as for any secondary limit."""
    recorded = recording("content_creation_limit")
    found = classify(recorded["status"], recorded["response"]["errors"], "", {})
    assert isinstance(found, SecondaryRateLimited)
    other = [{"type": "UNPROCESSABLE", "path": ["addComment"], "message": "Body is too long"}]
    assert not isinstance(classify(200, other, "", {}), SecondaryRateLimited)
