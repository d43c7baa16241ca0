"""The read as a maintainer waits for it: whole processes, paired, at 50 and 200 ms.

Three processes on the same world (bench/worlds.py, 1,000 issues, GraphQL's collaborator list
refused as for a workflow token), in turns, `pairs` times at each latency:

- `python -m corrections read` (the product: start, read, write the context, exit);
- `python -m bench.rest_process` (the REST reader of the same rules, as a process);
- `python -m bench.plain_client` (the very requests the product sent, recorded once from the
  emulator's log, sent again by the standard library in the product's waves: the floor).

Each turn's wall time is taken around the process (spawn to reaped), and its CPU time (user +
system, the kernel's account of the reaped child, which other jobs on the machine move least).
The figures a goal judges are paired: the median over turns of REST's wall time over the
product's, and of the product's wall time less the plain client's, unrounded (bench/goals.py);
min and max say how noisy the machine was, and the load average before and after says why.
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


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds (spawn to reaped) and CPU seconds (user + system) of one process."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _, status, usage = os.wait4(child.pid, 0)
    except BaseException:
        child.kill()
        raise
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, argv)
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def _wall(argv: list[str], env: dict[str, str]) -> float:
    return _timed(argv, env)[0]


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
    load_before = os.getloadavg()
    world = {**generate(spec), "collaborators_via_graphql": "forbidden"}
    env = {**os.environ, "GITHUB_TOKEN": TOKEN}
    env.pop("GITHUB_ACTIONS", None)
    # An installed package has its bytecode compiled (pip and uv compile at install): the warm-up
    # turns write what is missing or stale, else every turn compiles the modules edited since.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
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
        cpus: dict[str, list[float]] = {"product": [], "rest": [], "plain": []}
        for _ in range(pairs):
            for name, argv in (("rest", rest), ("product", product), ("plain", plain)):
                wall, cpu = _timed(argv, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
    turns = list(zip(walls["product"], walls["rest"], walls["plain"], strict=True))
    return {
        "latency_ms": latency_ms,
        "pairs": pairs,
        "requests": len(recorded),
        "waves": dependent_waves(recorded),
        "load_average": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "wall_s": {name: _spread(values) for name, values in walls.items()},
        "cpu_s": {name: _spread(values) for name, values in cpus.items()},
        "rest_over_product": _spread([r / p for p, r, _ in turns]),
        "product_over_plain_s": _spread([p - c for p, _, c in turns]),
        "product_over_plain_cpu_s": _spread(
            [p - c for p, c in zip(cpus["product"], cpus["plain"], strict=True)]
        ),
    }


def processes(pairs: int = PAIRS, spec: WorldSpec | None = None) -> dict[str, Any]:
    """Both latencies, keyed by milliseconds."""
    return {str(latency): process_pairs(latency, pairs, spec) for latency in LATENCIES}


def _row(label: str, spread: dict[str, float], unit: str = "s") -> str:
    return f"  {label:<34} " + "  ".join(f"{key} {spread[key]:.3f}{unit}" for key in ("min", "median", "max"))


def summary(found: dict[str, Any], judged: dict[str, dict[str, Any]]) -> str:
    """The run as a maintainer reads it: each process's wall and CPU time (min, median, max) at
    each latency, the paired figures, and the goals' verdicts."""
    lines = []
    for latency, run in found.items():
        before, after = run["load_average"]
        lines.append(
            f"{latency} ms: {run['pairs']} turns, {run['requests']} requests in {run['waves']} waves, "
            f"load average {before} -> {after}"
        )
        for name in ("product", "rest", "plain"):
            lines.append(_row(f"{name} wall", run["wall_s"][name]))
            lines.append(_row(f"{name} CPU", run["cpu_s"][name]))
        lines.append(_row("REST over product (paired)", run["rest_over_product"], "x"))
        lines.append(_row("product less plain (paired)", run["product_over_plain_s"]))
        lines.append(_row("product less plain, CPU (paired)", run["product_over_plain_cpu_s"]))
    for name, goal in judged.items():
        verdict = "met" if goal["met"] else "NOT met"
        lines.append(
            f"{name}: {goal['value']:.3f}{goal['unit']} against {goal['goal']:g}{goal['unit']}: {verdict}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    found = processes(int(sys.argv[1]) if len(sys.argv) > 1 else PAIRS, replace(WorldSpec()))
    print(json.dumps(found, indent=2))
