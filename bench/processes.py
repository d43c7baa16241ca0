"""The read as a maintainer waits for it: whole processes, paired, at 50 and 200 ms.

Three processes on the same world (bench/worlds.py, 1,000 issues, GraphQL's collaborator list
refused as for a workflow token), in turns, `pairs` times at each latency:

- `python -m corrections read` (the product: start, read, write the context, exit);
- `python -m bench.rest_process` (the REST reader of the same rules, as a process);
- `python -m bench.plain_client` (the very requests the product sent, recorded once from the
  emulator's log, sent again by the standard library in the product's waves: the floor).

Each turn's wall time is taken around the process (spawn to reaped). The figures a goal judges
are paired: the median over turns of REST's wall time over the product's, and of the product's
wall time less the plain client's, unrounded (bench/goals.py); min and max say how noisy the
machine was.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.measure import NAME, OWNER, TOKEN, dependent_waves
from bench.worlds import WorldSpec, generate
from emulator import Server, serve_in_thread
from emulator.store import Store
from emulator.world import parse_world

LATENCIES = (50, 200)
PAIRS = 7


def _spread(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def _wall(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300
    )
    return time.perf_counter() - started


def _waves(server: Server, entries: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The recorded requests, grouped by the wave each was sent in (as `dependent_waves` counts)."""
    ordered = sorted(entries, key=lambda entry: float(entry["start_s"]))
    depth: list[int] = []
    for index, entry in enumerate(ordered):
        before = [depth[j] for j in range(index) if float(ordered[j]["end_s"]) <= float(entry["start_s"])]
        depth.append(1 + max(before, default=0))
    waves: list[list[dict[str, Any]]] = [[] for _ in range(max(depth, default=0))]
    for entry, wave in zip(ordered, depth, strict=True):
        graphql = entry["endpoint"] == "graphql"
        query = entry.get("query_string") or ""
        headers = {"Authorization": f"bearer {TOKEN}", "User-Agent": "plain-client"}
        if graphql:
            headers["Content-Type"] = "application/json"
        else:
            headers["Accept"] = "application/vnd.github+json"
        url = (server.url if graphql else server.base_url + entry["path"]) + (f"?{query}" if query else "")
        waves[wave - 1].append(
            {"method": entry["method"], "url": url, "headers": headers, "body": entry["body"]}
        )
    return waves


def process_pairs(latency_ms: int, pairs: int = PAIRS, spec: WorldSpec | None = None) -> dict[str, Any]:
    """The three processes in turns at one latency: each one's wall times and the paired figures."""
    spec = spec or WorldSpec()
    world = {**generate(spec), "collaborators_via_graphql": "forbidden"}
    env = {**os.environ, "GITHUB_TOKEN": TOKEN}
    env.pop("GITHUB_ACTIONS", None)
    with (
        serve_in_thread(Store(parse_world(world)), latency_ms=latency_ms) as server,
        tempfile.TemporaryDirectory() as folder,
    ):
        product = [sys.executable, "-m", "corrections", "read", "--repo", f"{OWNER}/{NAME}"]
        product += ["--api-url", server.url, "--out", str(Path(folder) / "context")]
        rest = [sys.executable, "-m", "bench.rest_process", server.base_url, f"{OWNER}/{NAME}"]
        server.keep_requests = True
        before = len(server.entries)
        _wall(product, env)  # the warm-up, recorded
        server.keep_requests = False
        recorded = server.entries[before:]
        replay = Path(folder) / "requests.json"
        replay.write_text(json.dumps(_waves(server, recorded)), encoding="utf-8")
        plain = [sys.executable, "-m", "bench.plain_client", str(replay)]
        _wall(rest, env)
        _wall(plain, env)
        walls: dict[str, list[float]] = {"product": [], "rest": [], "plain": []}
        for _ in range(pairs):
            walls["rest"].append(_wall(rest, env))
            walls["product"].append(_wall(product, env))
            walls["plain"].append(_wall(plain, env))
    turns = list(zip(walls["product"], walls["rest"], walls["plain"], strict=True))
    return {
        "latency_ms": latency_ms,
        "pairs": pairs,
        "requests": len(recorded),
        "waves": dependent_waves(recorded),
        "wall_s": {name: _spread(values) for name, values in walls.items()},
        "rest_over_product": _spread([r / p for p, r, _ in turns]),
        "product_over_plain_s": _spread([p - c for p, _, c in turns]),
    }


def processes(pairs: int = PAIRS, spec: WorldSpec | None = None) -> dict[str, Any]:
    """Both latencies, keyed by milliseconds."""
    return {str(latency): process_pairs(latency, pairs, spec) for latency in LATENCIES}


if __name__ == "__main__":
    found = processes(int(sys.argv[1]) if len(sys.argv) > 1 else PAIRS, replace(WorldSpec()))
    print(json.dumps(found, indent=2))
