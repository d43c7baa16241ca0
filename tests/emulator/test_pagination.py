"""Pagination: any page size walks every item once, in order, forwards and backwards."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator import Server
from tests.emulation import Emulators

ISSUES = 37
ITEMS = 23


def _world() -> dict[str, Any]:
    issues = []
    for number in range(1, ISSUES + 1):
        day = 1 + (number * 7) % 28
        timeline = [
            {"type": "labeled", "actor": "alice", "label": f"l{k}", "at": f"2026-10-{day:02d}T10:{k:02d}:00Z"}
            for k in range(ITEMS if number == 1 else number % 4)
        ]
        issues.append(
            {
                "number": number,
                "title": f"Issue {number}",
                "author": "alice",
                "created_at": f"2026-10-{day:02d}T09:{number:02d}:00Z",
                "timeline": timeline,
            }
        )
    return {"repository": {"owner": "octo", "name": "demo"}, "issues": issues}


@pytest.fixture(scope="module")
def server(emulate_module: Emulators) -> Server:
    return emulate_module(_world())


def _walk(client: Any, server: Server, connection: str, size: int, forward: bool) -> list[Any]:
    seen: list[Any] = []
    cursor = None
    for _ in range(200):
        if forward:
            page_args = f"first: {size}" + (f', after: "{cursor}"' if cursor else "")
        else:
            page_args = f"last: {size}" + (f', before: "{cursor}"' if cursor else "")
        query = (
            '{ repository(owner: "octo", name: "demo") { ' + connection.replace("ARGS", page_args) + " } }"
        )
        data = client("POST", server.url, {"query": query}).json()["data"]["repository"]
        page = data["issues"] if "issues" in data else data["issue"]["timelineItems"]
        keys = [n.get("number") or n.get("createdAt") for n in page["nodes"]]
        seen.extend(keys if forward else reversed(keys))
        info = page["pageInfo"]
        if forward and not info["hasNextPage"]:
            break
        if not forward and not info["hasPreviousPage"]:
            break
        cursor = info["endCursor"] if forward else info["startCursor"]
    return seen if forward else list(reversed(seen))


ISSUES_QUERY = (
    "issues(ARGS, orderBy: {field: UPDATED_AT, direction: DESC}) "
    "{ nodes { number } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }"
)
TIMELINE_QUERY = (
    "issue(number: 1) { timelineItems(ARGS) { nodes { ... on LabeledEvent { createdAt } } "
    "pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }"
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(min_value=1, max_value=100), forward=st.booleans())
def test_issue_pages_walk_every_issue_once_in_order(
    server: Server, client: Any, size: int, forward: bool
) -> None:
    everything = client(
        "POST",
        server.url,
        {
            "query": '{ repository(owner: "octo", name: "demo") { '
            + ISSUES_QUERY.replace("ARGS", "first: 100")
            + " } }"
        },
    ).json()
    expected = [n["number"] for n in everything["data"]["repository"]["issues"]["nodes"]]
    assert len(expected) == ISSUES
    assert _walk(client, server, ISSUES_QUERY, size, forward) == expected


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(min_value=1, max_value=30), forward=st.booleans())
def test_timeline_pages_walk_every_item_once_in_order(
    server: Server, client: Any, size: int, forward: bool
) -> None:
    walked = _walk(client, server, TIMELINE_QUERY, size, forward)
    assert walked == sorted(walked)
    assert len(walked) == len(set(walked)) == ITEMS
