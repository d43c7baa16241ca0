"""What a run costs when GitHub times out on its first page (the emulator's server-time model).

GitHub stops a query after 10 s and, since July 2025, charges its points anyway. The model gives
the world's first page (100 issues x 100 timeline items) more than 10 s and half pages less, so the
reader's first request is refused and it goes on with halved pages. Figures: requests, points
(the refused query's included), nodes, measured wall time (the model does not sleep), and the
time GitHub takes to refuse (10 s a refused query), which a real run adds to its wall time.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from assistant.config import Config
from bench.measure import NAME, OWNER, TOKEN
from bench.worlds import WorldSpec, generate
from corrections.read.options import ReadOptions
from corrections.read.outcome import ReadOutcome
from corrections.read.round_trips import read_corrections
from corrections.read.status import Failed
from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world
from queries.client import GitHubClient

# 1 ms a node: the full first page (10,100+ nodes) passes GitHub's 10 s, a half page (2,550+) does not.
SERVER_TIME = {"ms_per_node": 1.0, "answer": "timeout_502"}


async def _read(url: str, config: Config) -> ReadOutcome:
    async with GitHubClient(url, TOKEN) as client:
        return await read_corrections(
            client, ReadOptions(owner=OWNER, name=NAME, config=config), lambda _: None
        )


def _run(world: dict[str, Any], config: Config) -> tuple[ReadOutcome, list[dict[str, Any]], float]:
    with serve_in_thread(Store(parse_world(world))) as server:
        asyncio.run(_read(server.url, config))  # warm-up (indexes, connections)
        before = len(server.log())
        started = time.perf_counter()
        outcome = asyncio.run(_read(server.url, config))
        wall = time.perf_counter() - started
        return outcome, server.log()[before:], wall


def _figures(outcome: ReadOutcome, log: list[dict[str, Any]], wall: float) -> dict[str, Any]:
    graphql = [entry for entry in log if entry["endpoint"] == "graphql"]
    sizes = outcome.page_sizes
    return {
        "requests": len(graphql),
        "rest_requests": len(log) - len(graphql),
        "points": sum(int(entry["cost"] or 0) for entry in graphql),
        "refused": sum(1 for entry in graphql if entry.get("timed_out")),
        "nodes": sum(int(entry["nodes"] or 0) for entry in graphql),
        "wall_s": round(wall, 3),
        "refused_s": round(
            sum(float(entry.get("server_ms") or 0) for entry in graphql if entry.get("timed_out")) / 1000, 2
        ),
        "page_sizes": {"issues": sizes.issues, "timeline_items": sizes.timeline},
        "failed": isinstance(outcome.status, Failed),
        "note": outcome.status.note,
    }


def adaptive_case(spec: WorldSpec, config: Config) -> dict[str, Any]:
    """The same world with and without the first page timing out, and whether both read the same."""
    world = generate(spec)
    plain, plain_log, plain_wall = _run(world, config)
    shrunk, shrunk_log, shrunk_wall = _run({**world, "server_time": SERVER_TIME}, config)
    same = [r.issue.number for r in plain.window] == [r.issue.number for r in shrunk.window] and (
        plain.corrections == shrunk.corrections
    )
    return {
        "world": {"issues": spec.issues},
        "full_pages": _figures(plain, plain_log, plain_wall),
        "first_page_times_out": _figures(shrunk, shrunk_log, shrunk_wall),
        "same_corrections": same,
    }
