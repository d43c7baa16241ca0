"""One measured run of each reader against a running emulator, their comparison, cold start and render time.

Requests, points, nodes and bytes come from the emulator's log (what the server saw), wall time
from the client's clock.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.config import Config, ContextConfig
from bench.rest_reader import RestOutcome, read_rest
from corrections.read.options import ReadOptions
from corrections.read.outcome import ReadOutcome
from corrections.read.round_trips import read_corrections
from corrections.read.status import Failed
from corrections.render.context import render_context
from corrections.rules.models import IssueCorrection
from emulator import Server, serve_in_thread
from queries.client import GitHubClient

TOKEN = "bench-token"  # noqa: S105 - the emulator accepts any token
OWNER, NAME = "octo", "bench"


@dataclass(frozen=True)
class Figures:
    """What one run of one reader cost, and what it found."""

    requests: int
    points: int
    nodes: int
    bytes: int
    wall_s: float
    window: tuple[int, ...]
    corrections: tuple[IssueCorrection, ...]
    operations: tuple[str, ...] = ()
    # REST permission look-ups the GraphQL reader made (logins GraphQL did not list); they
    # count against the REST budget, not the GraphQL points.
    rest_lookups: int = 0
    # Dependent waves: the longest chain of requests each sent after the one before was answered.
    waves: int = 0
    rest_bytes: int = 0  # bytes of the GraphQL reader's REST look-ups (beside `bytes`, GraphQL's)
    note: str | None = None  # the GraphQL reader's note


@dataclass(frozen=True)
class Pair:
    """Both readers on one world: the median wall time of several runs, and any disagreement.

    `wall_ratios`: REST's wall time over GraphQL's, run by run (the readers take turns, so a load
    that changes falls on both alike); the wall ratio a goal judges is their median, unrounded.
    """

    graphql: Figures
    rest: Figures
    differences: tuple[str, ...] = field(default=())
    wall_ratios: tuple[float, ...] = field(default=())

    @property
    def ratios(self) -> dict[str, float]:
        """REST over GraphQL: how many times more requests, bytes and wall time (unrounded)."""
        paired = statistics.median(self.wall_ratios) if self.wall_ratios else None
        return {
            "requests": self.rest.requests / max(1, self.graphql.requests),
            # Every byte the GraphQL reader received, its REST look-ups' included.
            "bytes": self.rest.bytes / max(1, self.graphql.bytes + self.graphql.rest_bytes),
            "wall": paired if paired is not None else self.rest.wall_s / max(1e-9, self.graphql.wall_s),
        }


def config_for(max_analyzed: int) -> Config:
    """The default configuration with another `max_analyzed`."""
    return Config(context=ContextConfig(max_analyzed=max_analyzed))


def _log_figures(entries: list[dict[str, Any]], endpoint: str) -> tuple[int, int, int, int, tuple[str, ...]]:
    mine = [entry for entry in entries if entry["endpoint"] == endpoint]
    return (
        len(mine),
        sum(int(entry["cost"] or 0) for entry in mine),
        sum(int(entry["nodes"] or 0) for entry in mine),
        sum(int(entry["bytes"] or 0) for entry in mine),
        tuple(str(entry["operation"] or entry["path"]) for entry in mine),
    )


def dependent_waves(entries: list[dict[str, Any]]) -> int:
    """The longest chain of requests in `entries` where each arrived after the one before was
    answered (the emulator's `start_s`/`end_s`): how many times a reader waited for GitHub.

    Requests in flight together count once; one the client sent only after an answer (because it
    needed what the answer said, or a free connection) counts again.
    """
    ordered = sorted(entries, key=lambda entry: float(entry["start_s"]))
    depth: list[int] = []
    for index, entry in enumerate(ordered):
        before = [depth[j] for j in range(index) if float(ordered[j]["end_s"]) <= float(entry["start_s"])]
        depth.append(1 + max(before, default=0))
    return max(depth, default=0)


async def _graphql(url: str, config: Config) -> ReadOutcome:
    async with GitHubClient(url, TOKEN) as client:
        return await read_corrections(
            client, ReadOptions(owner=OWNER, name=NAME, config=config), lambda _: None
        )


def run_graphql(server: Server, config: Config) -> Figures:
    """One run of the product's reader (`corrections.read.round_trips.read_corrections`)."""
    before = len(server.log())
    started = time.perf_counter()
    outcome = asyncio.run(_graphql(server.url, config))
    wall = time.perf_counter() - started
    if isinstance(outcome.status, Failed):
        raise RuntimeError(f"GraphQL reader failed: {outcome.status.note}")
    served = server.log()[before:]
    requests, points, nodes, size, operations = _log_figures(served, "graphql")
    lookups, _, _, rest_size, _ = _log_figures(served, "rest")
    return Figures(
        requests=requests,
        points=points,
        nodes=nodes,
        bytes=size,
        wall_s=wall,
        window=tuple(read.issue.number for read in outcome.window),
        corrections=tuple(outcome.corrections),
        operations=operations,
        rest_lookups=lookups,
        waves=dependent_waves(served),
        rest_bytes=rest_size,
        note=outcome.status.note,
    )


def run_rest(server: Server, config: Config) -> Figures:
    """One run of the REST reader; `nodes` counts the JSON objects GitHub sent."""
    before = len(server.log())
    started = time.perf_counter()
    outcome: RestOutcome = asyncio.run(read_rest(server.base_url, TOKEN, OWNER, NAME, config))
    wall = time.perf_counter() - started
    served = server.log()[before:]
    requests, _, _, size, _ = _log_figures(served, "rest")
    return Figures(
        requests=requests,
        points=0,
        nodes=outcome.objects,
        bytes=size,
        wall_s=wall,
        window=tuple(outcome.window),
        corrections=tuple(outcome.corrections),
        waves=dependent_waves(served),
    )


def differences(graphql: Figures, rest: Figures) -> list[str]:
    """How the two readers' windows and corrections differ (empty when they agree)."""
    found: list[str] = []
    if graphql.window != rest.window:
        found.append(f"window: GraphQL {list(graphql.window)} != REST {list(rest.window)}")
    by_number = {c.number: c for c in rest.corrections}
    for correction in graphql.corrections:
        other = by_number.get(correction.number)
        if other is not None and other != correction:
            found.append(f"#{correction.number}: GraphQL {correction!r} != REST {other!r}")
    return found


def compare(server: Server, config: Config, runs: int) -> Pair:
    """Both readers `runs` times, in turns, after one warm-up each; counts from the last run,
    median wall times, and the wall ratio of each turn."""
    run_graphql(server, config)
    run_rest(server, config)
    graphql_runs: list[Figures] = []
    rest_runs: list[Figures] = []
    for _ in range(runs):
        graphql_runs.append(run_graphql(server, config))
        rest_runs.append(run_rest(server, config))
    found: list[str] = []
    for graphql, rest in zip(graphql_runs, rest_runs, strict=True):
        found += differences(graphql, rest)
    graphql = graphql_runs[-1]
    rest = rest_runs[-1]
    return Pair(
        graphql=_with_wall(graphql, statistics.median(f.wall_s for f in graphql_runs)),
        rest=_with_wall(rest, statistics.median(f.wall_s for f in rest_runs)),
        differences=tuple(dict.fromkeys(found)),
        wall_ratios=tuple(
            r.wall_s / max(1e-9, g.wall_s) for g, r in zip(graphql_runs, rest_runs, strict=True)
        ),
    )


def _with_wall(figures: Figures, wall: float) -> Figures:
    return Figures(**{**figures.__dict__, "wall_s": wall})


def first_request_seconds(
    server: Server, argv: list[str], env: Mapping[str, str], cwd: str | Path | None = None
) -> float:
    """Seconds from spawning `argv` to its first request reaching `server`.

    The log has no arrival times: the first entry is seen when its answer is done, so its
    `duration_ms` (latency and execution) is taken off the moment it appears.
    """
    before = len(server.log())
    started = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while len(server.entries) == before and process.poll() is None:
        time.sleep(0.0005)
    seen = time.perf_counter()
    process.wait(timeout=120)
    if len(server.entries) == before:
        raise RuntimeError(f"{' '.join(argv[1:4])} made no request")
    answering: float = server.entries[before]["duration_ms"] / 1000
    return seen - started - answering


def cold_start(server: Server, runs: int = 3) -> float:
    """Median seconds from spawning `python -m corrections read` to its first request reaching the server."""
    found: list[float] = []
    env = {**os.environ, "GITHUB_TOKEN": TOKEN}
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as out:
            argv = [sys.executable, "-m", "corrections", "read", "--repo", f"{OWNER}/{NAME}"]
            argv += ["--api-url", server.url, "--out", out]
            found.append(first_request_seconds(server, argv, env))
    return statistics.median(found)


def cold_over_floor(server: Server, runs: int = 5) -> float:
    """Median, over pairs measured one right after the other, of the seconds from spawning
    `corrections read` to its first request beyond a process that only imports
    gql.transport.aiohttp: a load that changes between the two falls on both alike."""
    env = {**os.environ, "GITHUB_TOKEN": TOKEN}
    differences = []
    for _ in range(runs):
        floor = import_floor(runs=1)
        with tempfile.TemporaryDirectory() as out:
            argv = [sys.executable, "-m", "corrections", "read", "--repo", f"{OWNER}/{NAME}"]
            argv += ["--api-url", server.url, "--out", out]
            differences.append(first_request_seconds(server, argv, env) - floor)
    return statistics.median(differences)


def import_floor(runs: int = 3) -> float:
    """Median seconds of a whole process that only imports gql.transport.aiohttp (what the read
    needs before its first request can go out), its exit included."""
    found: list[float] = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import gql.transport.aiohttp"], check=True)
        found.append(time.perf_counter() - started)
    return statistics.median(found)


# The short commands that must answer at once (issue 16), as a user types them.
SHORT_COMMANDS = {
    "help": ["-m", "corrections", "--help"],
    "version": ["-m", "corrections", "--version"],
    "marker": ["-m", "corrections", "marker", "--labels", "bug"],
    "config_error": ["-m", "corrections", "read", "--repo", "o/n", "--config", "missing.toml"],
}


def short_commands(runs: int = 3) -> dict[str, float]:
    """Median seconds of each short command, a whole process each (in an empty folder)."""
    found: dict[str, float] = {}
    env = {**os.environ, "GITHUB_TOKEN": TOKEN}
    with tempfile.TemporaryDirectory() as folder:
        for name, argv in SHORT_COMMANDS.items():
            times = []
            for _ in range(runs):
                started = time.perf_counter()
                subprocess.run([sys.executable, *argv], cwd=folder, env=env, capture_output=True, check=False)
                times.append(time.perf_counter() - started)
            found[name] = round(statistics.median(times), 3)
    return found


def render_ms(runs: int = 20) -> float:
    """Median milliseconds of `render_context` on the demo world's outcome."""
    from emulator.worlds import demo_world_path

    with serve_in_thread(demo_world_path()) as server:
        outcome = asyncio.run(_demo(server.url))
    config = Config()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        render_context(outcome, config, ("src/cli/main.py",))
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def _demo(url: str) -> ReadOutcome:
    async with GitHubClient(url, TOKEN) as client:
        request = ReadOptions(owner="octo", name="demo", config=Config())
        return await read_corrections(client, request, lambda _: None)
