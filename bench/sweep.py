"""The window after a label sweep: the reader's scan against GitHub's issue search (issue 22).

A bot relabels 500 old issues after the analysed ones, so the 500 most recently updated issues
(the scan's bound at `scan_pages = 5`) hold no analysis. The scan ends at its bound and says so
in the note; an issue search by commenter (`repo:O/N is:issue commenter:LOGIN sort:updated-desc`)
would find the analysed issues at once. Both are measured here on the same world: the search as
a single query sent by the bench (the product has no search), its cost from the emulator's log.
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import replace
from typing import Any

from assistant.config import Config
from bench.measure import NAME, OWNER, TOKEN, config_for, run_graphql
from bench.worlds import WorldSpec, generate
from emulator import Server, serve_in_thread
from emulator.store import Store
from emulator.world import parse_world
from tests.kit.world import ASSISTANT

SWEPT = 500
# What a search-based window would send first: the analysed issues by newest activity, with the
# first page of their timelines (the scan page's selection, narrowed to comments for the count).
SEARCH = """query WindowBySearch($query: String!) {
  rateLimit { cost }
  search(type: ISSUE, query: $query, first: 100) {
    issueCount
    nodes { ... on Issue { number timelineItems(first: 100, itemTypes: [ISSUE_COMMENT]) {
      nodes { ... on IssueComment { author { login } body } } } } }
  }
}"""


def _search(server: Server, login: str) -> dict[str, Any]:
    query = f"repo:{OWNER}/{NAME} is:issue commenter:{login} sort:updated-desc"
    payload = json.dumps({"query": SEARCH, "variables": {"query": query}}).encode()
    request = urllib.request.Request(server.url, data=payload, method="POST")  # noqa: S310 - the local emulator
    request.add_header("Authorization", f"bearer {TOKEN}")
    request.add_header("Content-Type", "application/json")
    before = len(server.log())
    with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310 - the local emulator
        answer = json.loads(response.read())
    served = server.log()[before:]
    found = answer["data"]["search"]["nodes"]
    analysed = [
        issue["number"]
        for issue in found
        if any(
            (comment.get("author") or {}).get("login") == login and "assistant:analysis" in comment["body"]
            for comment in issue["timelineItems"]["nodes"]
        )
    ]
    return {
        "requests": len(served),
        "points": sum(int(entry["cost"] or 0) for entry in served),
        "nodes": sum(int(entry["nodes"] or 0) for entry in served),
        "issues_found": answer["data"]["search"]["issueCount"],
        "analysed_in_first_page": len(analysed),
    }


def sweep_case(spec: WorldSpec, config: Config | None = None) -> dict[str, Any]:
    """The scan and the search on a world whose 500 oldest issues were relabelled last."""
    config = config or config_for(30)
    swept = replace(spec, sweep=SWEPT, long_in_window=False)
    with serve_in_thread(Store(parse_world(generate(swept)))) as server:
        scan = run_graphql(server, config)
        search = _search(server, ASSISTANT)
    return {
        "world": {"issues": spec.issues, "swept": SWEPT},
        "scan": {
            "requests": scan.requests,
            "points": scan.points,
            "window": len(scan.window),
            "waves": scan.waves,
            "note": scan.note,
        },
        "search": search,
    }
