"""Shapes of GitHub's current answers (tests/conformance/recordings/, each file naming its source
and licence) that the emulator must give too: same keys, `__typename`s and nullability."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest

from bench.busy_month import BusyMonthSpec, busy_month
from corrections.commands.cli import main as corrections_main
from corrections.rules import from_github
from learnings.cli import main as learnings_main
from learnings.commands import pacing
from queries.classify import classify
from queries.errors import SecondaryRateLimited
from queries.models import CommentNode
from queries.permissions import ListedCollaborator, rest_level
from tests.conformance.test_recordings import REPO, post, recording, shape
from tests.emulation import DEMO, Emulators, world_dict
from tests.emulator.conftest import SMALL_WORLD, http
from tests.writepath.conftest import VirtualTime


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


def test_a_custom_role_built_on_triage_reads_as_triage_through_rest(emulate: Emulators) -> None:
    """GitHub's per-person endpoint reports a custom role's base only in the `permissions` hash
    (`permission` maps triage to read, `role_name` is the custom name:
    recordings/custom_role_permission.json): the product reads TRIAGE, as its list path does, and
    the emulator answers a world's `custom_roles` in that shape."""
    recorded = recording("custom_role_permission")
    assert rest_level(recorded["response"]) == "TRIAGE", "(a) the base role from the hash"
    assert ListedCollaborator.model_validate(recorded["response"]["user"]).level() == "TRIAGE"
    world = world_dict(SMALL_WORLD)
    world["permissions"]["kim"] = "TRIAGE"
    world["custom_roles"] = {"kim": "issue-wrangler"}
    server = emulate(world, tokens={"alices-token": "alice"})
    answer = http("GET", server.base_url + "/repos/octo/demo/collaborators/kim/permission", token="t")
    assert answer.status == recorded["status"]
    body = answer.json()
    trimmed = {**body, "user": {k: body["user"][k] for k in recorded["response"]["user"]}}
    assert shape(trimmed) == shape(recorded["response"]), "every recorded key, of the recorded kind"
    assert {k: answer.json()[k] for k in ("permission", "role_name")} == {
        "permission": "read",
        "role_name": "issue-wrangler",
    }
    assert answer.json()["user"]["permissions"] == recorded["response"]["user"]["permissions"]
    listed = http("GET", server.base_url + "/repos/octo/demo/collaborators", token="alices-token").json()
    [kim] = [person for person in listed if person["login"] == "kim"]
    assert kim["role_name"] == "issue-wrangler"
    assert ListedCollaborator.model_validate(kim).level() == "TRIAGE"


RATE = "{ rateLimit { limit cost remaining used resetAt } }"


def test_a_workflow_token_has_1000_points_an_hour_for_the_repository(emulate: Emulators) -> None:
    """GitHub's docs: a workflow's GITHUB_TOKEN has 1,000 GraphQL points an hour per repository
    (recordings/workflow_token_graphql_budget.json); a user's token 5,000. A world without a
    `rate_limit` gives each token its own, and the workflow tokens (`github-actions`) one
    budget together: two runs of the same repository spend the same points."""
    recorded = recording("workflow_token_graphql_budget")
    world = world_dict(SMALL_WORLD)
    world.pop("rate_limit", None)
    server = emulate(world, tokens={"alices-token": "alice"})
    answer = post(server, RATE, token="run-1-token")
    assert shape(answer.json()) == shape(recorded["response"])
    assert answer.json()["data"]["rateLimit"] == {**recorded["response"]["data"]["rateLimit"], "resetAt": ANY}
    assert {k: answer.headers[k] for k in recorded["headers"]} == recorded["headers"]
    second_run = post(server, RATE, token="run-2-token").json()["data"]["rateLimit"]
    assert (second_run["limit"], second_run["used"]) == (1000, 2), "one budget for the repository's runs"
    person = post(server, RATE, token="alices-token").json()["data"]["rateLimit"]
    assert (person["limit"], person["used"]) == (5000, 1), "a person's token: 5,000, its own"


def test_a_simulated_hour_later_the_workflow_budget_is_whole_again(emulate: Emulators) -> None:
    """A simulation moving the world's clock (`now`) an hour on starts a new window: the bench's
    weekly runs do not share one hour's budget."""
    world = world_dict(SMALL_WORLD)
    world["now"] = "2026-11-10T09:00:00Z"
    server = emulate(world)
    assert post(server, RATE).json()["data"]["rateLimit"]["used"] == 1
    assert post(server, RATE).json()["data"]["rateLimit"]["used"] == 2
    server.store.set_now(datetime(2026, 11, 10, 10, 0, tzinfo=UTC))
    assert post(server, RATE).json()["data"]["rateLimit"]["used"] == 1


def test_the_sync_and_the_monthly_report_keep_their_budgets_within_a_workflow_tokens_hour(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The budgets the product states (docs/learnings.md: a sync's reads 200 points; docs/quality.md:
    the monthly report 100) hold under a workflow token's 1,000 points an hour: on a busy month,
    one sync and one report in the same hour spend at most 300 of them, no request is refused,
    and what is left pays for the action's runs (about 3 points each). The sync's pauses between
    mutations (a second or more each) pass on a virtual clock: points, not seconds, are counted."""
    monkeypatch.setenv("GITHUB_TOKEN", "workflow-token")
    paced = VirtualTime()
    monkeypatch.setattr(pacing, "PACING", pacing.Pacing(paced.sleep, paced.clock))
    spec = BusyMonthSpec(issues=300, pull_requests=60, remember=20, proposals=15, ignored=4)
    world = {**busy_month(spec).world, "viewer": "github-actions"}  # a workflow's GITHUB_TOKEN
    world.pop("rate_limit", None)
    server = emulate(world)
    repo = f"{world['repository']['owner']}/{world['repository']['name']}"
    assert learnings_main(["sync", "--repo", repo, "--api-url", server.url]) == 0
    synced = sum(entry.get("cost") or 0 for entry in server.log())
    assert 0 < synced <= 200 + 8, "the reads within 200 points, and at most 8 mutations"
    assert paced.sleeps, "the sync paced its mutations (on the virtual clock)"
    out = tmp_path / "quality"
    argv = ["quality", "--repo", repo, "--api-url", server.url, "--out", str(out), "--month", "2026-11"]
    assert corrections_main(argv) == 0
    reported = sum(entry.get("cost") or 0 for entry in server.log()) - synced
    written = json.loads((out / "quality.json").read_text(encoding="utf-8"))
    assert written["budget"]["points"] == 100 and reported <= 100
    assert all("RATE_LIMIT" not in json.dumps(entry) for entry in server.log())
    left = post(server, RATE).json()["data"]["rateLimit"]
    assert left["limit"] == 1000 and left["remaining"] >= 1000 - 300 - 1
    capsys.readouterr()


def test_a_hidden_comment_says_why(emulate: Emulators) -> None:
    """GitHub's schema: `isMinimized` and `minimizedReason` (`off-topic`, `outdated`, ... in the
    field's own spelling: recordings/minimized_comment.json). The emulator answers a world
    comment's `minimized` so, and the product reads the reason into the rule model."""
    recorded = recording("minimized_comment")
    nodes = recorded["response"]["data"]["repository"]["issue"]["timelineItems"]["nodes"]
    world = world_dict(SMALL_WORLD)
    timeline = world["issues"][0]["timeline"]
    timeline[0]["minimized"] = "off-topic"
    timeline.append(
        {"type": "comment", "id": 2400009004, "author": "bob", "at": "2026-11-01T13:00:00Z", "body": "b"}
    )
    server = emulate(world)
    answer = post(
        server,
        f"{{ {REPO} {{ issue(number: 1) {{ timelineItems(first: 5, itemTypes: [ISSUE_COMMENT]) {{ nodes {{ "
        "__typename ... on IssueComment { isMinimized minimizedReason } } } } } }",
    ).json()
    assert answer == recorded["response"]
    read = [
        from_github.event(
            CommentNode.model_validate(
                {
                    **node,
                    "id": "IC_1",
                    "fullDatabaseId": "1",
                    "createdAt": "2026-11-01T10:00:00Z",
                    "body": "",
                    "author": None,
                }
            )
        )
        for node in nodes
    ]
    assert [getattr(event, "hidden", "?") for event in read] == ["OFF_TOPIC", None]


def test_a_first_analysis_hidden_as_off_topic_is_not_read_as_one(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """End to end: the demo's issue 54 (a counted 👎), its first analysis hidden as off-topic on
    GitHub, is no analysis of the window and no correction, and the read says why on stderr
    (docs/rules.md, "Hidden analyses")."""
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    world = world_dict(DEMO)
    issue = next(item for item in world["issues"] if item["number"] == 54)
    analysis = next(item for item in issue["timeline"] if item.get("author") == "triage-assistant")
    analysis["minimized"] = "off-topic"
    server = emulate(world)
    out = tmp_path / "out"
    argv = ["read", "--repo", "octo/demo", "--api-url", server.url, "--out", str(out)]
    assert corrections_main(argv) == 0
    err = capsys.readouterr().err
    assert f"#54 comment {analysis['id']}: analysis hidden on GitHub as off-topic; not counted" in err
    written = json.loads((out / "corrections.json").read_text(encoding="utf-8"))
    assert 54 not in written["window"] and 60 in written["window"]
    assert all(item["number"] != 54 for item in written["corrections"])


def test_the_emulator_answers_the_content_creation_limit_in_the_recorded_shape(emulate: Emulators) -> None:
    """A `partial` fault of type UNPROCESSABLE at the mutation's field gives GitHub's recorded answer
    (recordings/content_creation_limit.json), and nothing is written."""
    recorded = recording("content_creation_limit")
    error = recorded["response"]["errors"][0]
    fault = {
        "kind": "partial",
        "nth": 2,
        "type": error["type"],
        "message": error["message"],
        "path": error["path"],
    }
    server = emulate(SMALL_WORLD, faults=[fault])
    subject = post(server, f"{{ {REPO} {{ issue(number: 1) {{ id }} }} }}").json()
    answer = post(
        server,
        'mutation($id: ID!) { addComment(input: {subjectId: $id, body: "hi"}) { clientMutationId } }',
        {"id": subject["data"]["repository"]["issue"]["id"]},
    )
    assert answer.status == recorded["status"]
    body = answer.json()
    trimmed = {**body, "errors": [{k: e[k] for k in error} for e in body["errors"]]}
    assert shape(trimmed) == shape(recorded["response"]) and trimmed == recorded["response"]
    assert isinstance(classify(answer.status, body["errors"], "", {}), SecondaryRateLimited)
    timeline = server.state()["issues"][0]["timeline"]
    assert not any(item.get("body") == "hi" for item in timeline), "the refused comment was not written"
