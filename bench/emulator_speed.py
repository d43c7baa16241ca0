"""Emulator speed: the product's main query on 100 issues x 20 items, and page 1 of a 100,000-issue world.

Run: ``python bench/emulator_speed.py`` (prints seconds; not part of the test suite).
"""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world

MAIN_QUERY = """query CorrectionWindow { repository(owner: "octo", name: "demo") {
  issues(first: 100, orderBy: {field: UPDATED_AT, direction: DESC}) { pageInfo { hasNextPage endCursor }
    nodes { number title updatedAt stateReason
      timelineItems(first: 100, itemTypes: [ISSUE_COMMENT, LABELED_EVENT, UNLABELED_EVENT, CLOSED_EVENT]) {
        totalCount nodes { __typename
          ... on IssueComment { fullDatabaseId body createdAt author { __typename login }
            reactions(content: THUMBS_DOWN, first: 10) { totalCount nodes { user { login } } } }
          ... on LabeledEvent { createdAt actor { __typename login } label { name } }
          ... on UnlabeledEvent { createdAt actor { __typename login } label { name } }
          ... on ClosedEvent { createdAt stateReason actor { login } } } } } } } }"""


def world(issues: int, items: int) -> dict[str, Any]:
    """A synthetic world: ``issues`` issues of ``items`` timeline items each."""
    out = []
    comment = 2_600_000_001  # real comment ids are above 2^31
    for number in range(1, issues + 1):
        timeline: list[dict[str, Any]] = []
        for k in range(items):
            day = f"2026-{1 + number % 12:02d}-{1 + number % 28:02d}"
            at = f"{day}T{k % 24:02d}:{k % 60:02d}:{number % 60:02d}Z"
            if k % 2 == 0:
                timeline.append(
                    {
                        "type": "comment",
                        "id": comment,
                        "author": "triage-assistant",
                        "at": at,
                        "body": f"comment {k} " * 5,
                        "reactions": [{"user": "bob", "content": "THUMBS_DOWN", "at": at}],
                    }
                )
                comment += 1
            else:
                timeline.append({"type": "labeled", "actor": "alice", "label": f"l{k}", "at": at})
        timeline.sort(key=lambda item: item["at"])
        out.append(
            {
                "number": number,
                "title": f"Issue {number}",
                "author": "dave",
                "created_at": f"2026-01-01T00:00:{number % 60:02d}Z",
                "timeline": timeline,
            }
        )
    return {
        "repository": {"owner": "octo", "name": "demo"},
        "users": {"triage-assistant": "Bot"},
        "issues": out,
    }


def post(url: str, query: str) -> Any:
    """One GraphQL request."""
    request = urllib.request.Request(  # noqa: S310
        url, json.dumps({"query": query}).encode(), {"Authorization": "bearer x"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310
        return json.loads(response.read())


def main() -> None:
    """Print the figures."""
    with serve_in_thread(world(100, 20)) as server:
        post(server.url, "{ viewer { login } }")
        started = time.perf_counter()
        body = post(server.url, MAIN_QUERY)
        print(
            f"main query, 100 issues x 20 items: {time.perf_counter() - started:.3f} s "
            f"({len(json.dumps(body)) // 1024} KiB)"
        )
    big = json.dumps(world(100_000, 2))
    started = time.perf_counter()
    store = Store(parse_world(big))
    print(f"100,000-issue world parsed: {time.perf_counter() - started:.2f} s")
    with serve_in_thread(store) as server:
        started = time.perf_counter()
        post(server.url, MAIN_QUERY)
        print(f"100,000 issues, page 1 (builds the index): {time.perf_counter() - started:.3f} s")
        started = time.perf_counter()
        post(server.url, MAIN_QUERY)
        print(f"100,000 issues, page 1 again: {time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main()
