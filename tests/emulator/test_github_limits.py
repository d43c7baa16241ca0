"""Limits and shapes of GitHub that the emulator models (docs/emulator.md names each source)."""

from __future__ import annotations

import time
from typing import Any

from tests.emulation import Emulators
from tests.emulator.conftest import http

REPO = 'repository(owner: "octo", name: "demo")'
REST = "/repos/octo/demo"


def test_more_than_100_node_ids_is_an_argument_limit(gql: Any) -> None:
    ids = ["I_x"] * 101
    answer = gql("query($ids: [ID!]!) { many: nodes(ids: $ids) { id } }", {"ids": ids})
    assert answer["data"] is None
    [error] = answer["errors"]
    assert error["type"] == "ARGUMENT_LIMIT" and error["path"] == ["many"]
    assert error["message"] == "You may not provide more than 100 node ids; you provided 101."
    hundred = gql("query($ids: [ID!]!) { nodes(ids: $ids) { id } }", {"ids": ids[:100]})
    assert len(hundred["data"]["nodes"]) == 100


def test_blob_text_is_cut_at_512000_bytes(world: dict[str, Any], emulate: Emulators) -> None:
    big = "é" * 300_000  # 600,000 bytes of UTF-8
    world["files"]["main"]["big.md"] = big
    query = (
        f'{{ {REPO} {{ big: object(expression: "main:big.md") {{ ... on Blob {{ text isTruncated byteSize }} }} '
        'small: object(expression: "main:.github/assistant/labels.md") { ... on Blob { isTruncated } } } }'
    )
    server = emulate(world)
    repo = http("POST", server.url, {"query": query}).json()["data"]["repository"]
    assert repo["big"]["isTruncated"] is True and repo["big"]["byteSize"] == 600_000
    assert len(repo["big"]["text"].encode()) == 512_000 and big.startswith(repo["big"]["text"])
    assert repo["small"]["isTruncated"] is False


def test_dry_run_prices_without_executing_or_charging(emulator: Any, gql: Any) -> None:
    query = (
        f"{{ rateLimit(dryRun: true) {{ cost remaining }} {REPO} {{ issues(first: 100) {{ nodes {{ "
        "timelineItems(first: 100) { nodes { ... on IssueComment { reactions(first: 40) { totalCount } } } } "
        "} } } }"
    )  # 1 + 100 + 100 * 100 = 10,101 requests: 101 points (410,100 nodes, under the limit)
    answer = gql(query)
    assert answer["data"] == {"rateLimit": {"cost": 101, "remaining": 1000}}  # a workflow token's 1,000
    after = gql("{ rateLimit { remaining } }")["data"]["rateLimit"]
    assert after == {"remaining": 999}  # the dry run cost nothing; this query 1
    assert [entry["cost"] for entry in emulator.log()] == [101, 1]


def test_rate_limited_faults_say_when_the_budget_comes_back(emulator: Any, client: Any) -> None:
    emulator.set_faults([{"kind": "rate_limited", "reset_in_s": 120}, {"kind": "rate_limit", "nth": 2}])
    for kind in ("RATE_LIMITED", "RATE_LIMIT"):
        reply = client("POST", emulator.url, {"query": "{ viewer { login } }"})
        assert reply.json()["errors"][0]["type"] == kind
        assert reply.headers["x-ratelimit-remaining"] == "0"
        reset = int(reply.headers["x-ratelimit-reset"])
        assert time.time() < reset <= time.time() + 121


def test_rest_node_ids_are_the_graphql_ids(emulator: Any, gql: Any, client: Any) -> None:
    issue = gql(
        f"{{ {REPO} {{ issue(number: 1) {{ id author {{ ... on Node {{ id }} }} comments(first: 1) {{ nodes {{ id author {{ ... on Node {{ id }} }} "
        "reactions(first: 1) { nodes { id } } } } timelineItems(first: 5, itemTypes: [LABELED_EVENT]) "
        "{ nodes { ... on LabeledEvent { id } } } } pullRequest(number: 4) { id } } }"
    )["data"]["repository"]
    rest_issue = client("GET", emulator.base_url + REST + "/issues/1").json()
    assert rest_issue["node_id"] == issue["issue"]["id"]
    assert rest_issue["user"]["node_id"] == issue["issue"]["author"]["id"]
    comment = issue["issue"]["comments"]["nodes"][0]
    rest_comment = client("GET", emulator.base_url + REST + "/issues/comments/2400009001").json()
    assert rest_comment["node_id"] == comment["id"]
    assert rest_comment["user"]["node_id"] == comment["author"]["id"]  # a Bot, `[bot]` in REST
    reaction = client("GET", emulator.base_url + REST + "/issues/comments/2400009001/reactions").json()[0]
    assert reaction["node_id"] == comment["reactions"]["nodes"][0]["id"]
    events = client("GET", emulator.base_url + REST + "/issues/1/events").json()
    labeled = [e["node_id"] for e in events if e["event"] == "labeled"]
    assert labeled == [n["id"] for n in issue["issue"]["timelineItems"]["nodes"]]
    assert (
        client("GET", emulator.base_url + REST + "/issues/4").json()["node_id"] == issue["pullRequest"]["id"]
    )


def test_a_bots_reaction_user_comes_typed_bot(world: dict[str, Any], emulate: Emulators) -> None:
    reactions = world["issues"][0]["timeline"][0]["reactions"]
    reactions.append({"user": "ci-bot", "content": "THUMBS_DOWN", "at": "2026-11-01T11:03:00Z"})
    query = (
        f"{{ {REPO} {{ issue(number: 1) {{ comments(first: 1) {{ nodes {{ "
        "reactions(first: 10, content: THUMBS_DOWN) { nodes { user { __typename login } } } } } } } }"
    )
    server = emulate(world)
    answer = http("POST", server.url, {"query": query}).json()
    rest = http("GET", server.base_url + REST + "/issues/comments/2400009001/reactions?content=-1").json()
    nodes = answer["data"]["repository"]["issue"]["comments"]["nodes"][0]["reactions"]["nodes"]
    assert [n["user"] for n in nodes] == [
        {"__typename": "User", "login": "bob"},
        None,  # a deleted account
        {"__typename": "Bot", "login": "ci-bot"},  # typed Bot, although Reaction.user is a User field
    ]
    assert [r["user"] and r["user"]["login"] for r in rest] == ["bob", None, "ci-bot[bot]"]


def test_rest_budget_of_a_github_token_is_1000(world: dict[str, Any], emulate: Emulators) -> None:
    world["tokens"] = {"workflow": "github-actions", "pat": "alice"}
    server = emulate(world)
    url = server.base_url + REST + "/issues/1"
    workflow = http("GET", url, token="workflow").headers
    person = http("GET", url, token="pat").headers
    assert workflow["x-ratelimit-limit"] == "1000" and workflow["x-ratelimit-remaining"] == "999"
    assert person["x-ratelimit-limit"] == "5000"
