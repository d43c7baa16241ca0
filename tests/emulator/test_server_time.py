"""The server-time model: a query whose modelled time passes GitHub's 10 s limit is refused the
way the world chooses, its points charged all the same; nothing sleeps unless the world asks."""

from __future__ import annotations

from typing import Any

import pytest

from emulator.world import WorldError, parse_world
from tests.emulation import Emulators

# 100 issues + 100 x 100 timeline items = 10,100 nodes: over 10 s at 1 ms a node.
BIG = """query Big { rateLimit { cost remaining nodeCount }
  repository(owner: "octo", name: "demo") {
    issues(first: 100) { nodes { number timelineItems(first: 100) { nodes { __typename } } } } } }"""
# 50 + 50 x 50 = 2,550 nodes: 2.55 s, answered.
SMALL = BIG.replace("first: 100", "first: 50").replace("query Big", "query Small")


def _model(**keys: Any) -> dict[str, Any]:
    """A server-time model of 1 ms a node, with other keys as given."""
    return {"ms_per_node": 1, **keys}


@pytest.mark.parametrize(("answer", "status"), [("timeout_502", 502), ("timeout_200", 200)])
def test_a_query_over_the_limit_gets_githubs_timeout(
    world: dict[str, Any], client: Any, answer: str, status: int, emulate: Emulators
) -> None:
    server = emulate(world, server_time=_model(answer=answer))
    reply = client("POST", server.url, {"query": BIG})
    after = client("POST", server.url, {"query": SMALL}).json()["data"]["rateLimit"]
    log = server.log()
    assert reply.status == status
    body = reply.json()
    assert body["data"] is None
    assert body["errors"][0]["message"].startswith("Something went wrong while executing your query.")
    # The timed-out query's point was charged: 1 for Big (101 requests / 100), 1 for Small.
    assert after["remaining"] == 1000 - 1 - 1  # a workflow token's 1,000 points
    assert [(e["operation"], e["timed_out"], e["server_ms"]) for e in log] == [
        ("Big", True, 10_000),
        ("Small", False, 2_550),
    ]


def test_resource_limits_null_the_field_with_a_typed_error(
    world: dict[str, Any], client: Any, emulate: Emulators
) -> None:
    server = emulate(world, server_time=_model(answer="resource_limits"))
    body = client("POST", server.url, {"query": BIG}).json()
    assert body["data"]["repository"] is None
    assert body["data"]["rateLimit"]["nodeCount"] == 10_100
    assert body["errors"] == [
        {
            "type": "RESOURCE_LIMITS_EXCEEDED",
            "path": ["repository"],
            "message": "Resource limits for this query exceeded.",
        }
    ]


def test_the_limit_and_base_time_come_from_the_world(
    world: dict[str, Any], client: Any, emulate: Emulators
) -> None:
    server = emulate(world, server_time=_model(limit_ms=20_000, base_ms=50))
    reply = client("POST", server.url, {"query": BIG})
    log = server.log()
    assert reply.status == 200 and reply.json()["data"]["repository"] is not None
    assert log[0]["server_ms"] == 10_150 and not log[0]["timed_out"]


def test_without_a_model_nothing_changes(world: dict[str, Any], client: Any, emulate: Emulators) -> None:
    server = emulate(world)
    assert client("POST", server.url, {"query": BIG}).status == 200
    assert "server_ms" not in server.log()[0]


def test_a_wrong_model_is_refused_naming_the_key(world: dict[str, Any]) -> None:
    world["server_time"] = {"ms_per_node": 1, "answer": "slow"}
    with pytest.raises(WorldError, match=r"^server_time\.answer: "):
        parse_world(world)
