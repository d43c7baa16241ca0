"""The window is the analysed issues among the most recently updated ones: a bound that ended the
search early is said (issue 22: 500 old issues relabelled by a sweep gave window 0 and no note)."""

from __future__ import annotations

import asyncio

from assistant.config import Config, ContextConfig
from bench.worlds import WorldSpec, generate
from corrections.read.notes import scan_bound
from corrections.read.options import ReadOptions
from corrections.read.outcome import ReadOutcome
from corrections.read.round_trips import read_corrections
from corrections.read.status import Complete
from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world
from queries.client import GitHubClient

CONFIG = Config(context=ContextConfig(max_analyzed=30, scan_pages=2))


def read(spec: WorldSpec) -> ReadOutcome:
    async def run(url: str) -> ReadOutcome:
        async with GitHubClient(url, "t0ken") as client:
            request = ReadOptions(owner="octo", name="bench", config=CONFIG)
            return await read_corrections(client, request, lambda _: None)

    with serve_in_thread(Store(parse_world(generate(spec)))) as server:
        return asyncio.run(run(server.url))


def test_a_sweep_past_the_bound_is_said_in_the_note() -> None:
    outcome = read(WorldSpec(issues=400, sweep=200, long_in_window=False))
    assert outcome.window == ()
    assert outcome.status == Complete(note=scan_bound(0, 30, 200))  # nothing missing: the bound is said
    note = outcome.status.note
    assert note is not None and "scan_pages" in note and "max_analyzed" in note


def test_a_sweep_within_the_bound_fills_the_window_with_no_note() -> None:
    outcome = read(WorldSpec(issues=400, sweep=100, long_in_window=False))
    assert len(outcome.window) == 30 and outcome.status == Complete()


def test_a_scan_that_read_the_whole_repository_says_nothing() -> None:
    """60 issues, 9 analysed: fewer than 30 analyses exist, the scan saw them all."""
    outcome = read(WorldSpec(issues=60, long_in_window=False))
    assert 0 < len(outcome.window) < 30 and outcome.status == Complete()
