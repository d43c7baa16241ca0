"""The horizon past the window (issue 31): a kind of mistake corrected only longer ago than the
newest `max_analyzed` analyses is still among the lessons, within the read's points budget."""

from __future__ import annotations

import asyncio
from typing import Any

from assistant.config import Config, ContextConfig
from bench.loop_world import Arrival, arrivals, blind_model, history_world
from bench.worlds import WorldSpec, generate
from corrections.read.options import ReadOptions
from corrections.read.outcome import ReadOutcome
from corrections.read.round_trips import read_corrections
from corrections.render.files import render_corrections_md
from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world
from queries.client import GitHubClient

FOUND = arrivals(10, 6, 7)  # 60 issues, six topics in turn
POINTS = 3  # a read's budget, the horizon included
OLD = 12  # the first two weeks: the blind model's mistakes, corrected; right ever after


def _learned(arrival: Arrival) -> tuple[list[str], int | None]:
    return blind_model(arrival) if arrival.number <= OLD else (list(arrival.truth), None)


def served(
    world: dict[str, object], owner: str, name: str, max_analyzed: int = 30
) -> tuple[ReadOutcome, list[dict[str, Any]]]:
    """The read's outcome and the GraphQL requests the emulator served it."""
    config = Config(context=ContextConfig(max_analyzed=max_analyzed))

    async def run(url: str) -> ReadOutcome:
        async with GitHubClient(url, "t0ken") as client:
            request = ReadOptions(owner=owner, name=name, config=config)
            return await read_corrections(client, request, lambda _: None)

    with serve_in_thread(Store(parse_world(world))) as server:
        outcome = asyncio.run(run(server.url))
        return outcome, [e for e in server.log() if e["endpoint"] == "graphql"]


def read(world: dict[str, object], owner: str, name: str, max_analyzed: int = 30) -> ReadOutcome:
    return served(world, owner, name, max_analyzed)[0]


def test_corrections_older_than_the_window_are_lessons_still() -> None:
    outcome, requests = served(history_world(FOUND, _learned), "octo", "loop")
    # A quiet repository: the first page holds every issue, so no horizon page and 2 points.
    assert [e["operation"] for e in requests] == ["CorrectionWindow", "CorrectionDetails"]
    assert outcome.usage.points == 2
    assert [r.issue.number for r in outcome.window] == list(range(60, 30, -1))
    assert not any(c.is_corrected for c in outcome.corrections)  # the window alone: nothing to learn
    old = {c.number for c in outcome.corrected}
    assert old and old <= set(range(1, OLD + 1))
    assert {c.number for c in outcome.carried} == old
    text = render_corrections_md(outcome)
    assert all(f"#{number} " in text for number in old)
    assert outcome.usage.points <= POINTS


def test_the_horizon_keeps_a_first_analysis_within_its_points() -> None:
    """The bench's busy world: about 15 in 100 issues analysed, so the window takes two pages."""
    outcome = read(generate(WorldSpec(issues=1_000, seed=7)), "octo", "bench")
    assert len(outcome.window) == 30
    assert sum(1 for read in outcome.read_issues if read.issue.body) <= 100
    assert outcome.usage.points <= POINTS


BUSY = arrivals(5, 36, 7)  # 180 issues, every one analysed: the first scan page holds 100


def test_a_busy_repository_reads_one_page_more_for_the_horizon() -> None:
    """The window takes the first page; the horizon's 200 first analyses want a second, asked once
    with its bodies beside the details round: the oldest corrections are lessons (not with a
    horizon of 100), within 3 points and no request but that page more."""
    old = set(range(1, OLD + 1))

    def learned(arrival: Arrival) -> tuple[list[str], int | None]:
        return blind_model(arrival) if arrival.number in old else (list(arrival.truth), None)

    outcome, requests = served(history_world(BUSY, learned), "octo", "loop")
    operations = [e["operation"] for e in requests]
    assert sorted(operations) == ["CorrectionDetails", "CorrectionWindow", "CorrectionWindow"]
    assert outcome.usage.points <= POINTS
    corrected = {c.number for c in outcome.corrected}
    assert corrected and corrected <= old  # the blind model is right sometimes
    assert {c.number for c in outcome.carried} == corrected
    assert all(read.issue.body for read in outcome.horizon)  # the bodies came with the page
    assert len(outcome.window) + len(outcome.horizon) <= len(BUSY)


def test_the_horizon_page_is_one_page_however_many_issues() -> None:
    """Four pages of analysed issues: one page past the window's, never more."""
    outcome, requests = served(history_world(arrivals(11, 36, 7), _learned), "octo", "loop")
    assert [e["operation"] for e in requests].count("CorrectionWindow") == 2
    assert outcome.usage.points <= POINTS


def test_a_window_of_two_pages_asks_no_horizon_page_and_one_details_request() -> None:
    """The newest 80 of 252 issues have no analysis: the window takes two pages, which with the
    details round are 3 points already, so no horizon page; the 90 first analyses past the
    window on them are horizon still, and their bodies are asked only while one details request
    holds them (100 with the window's)."""
    world = history_world(arrivals(7, 36, 7), _learned)
    issues: list[dict[str, Any]] = world["issues"]
    for issue in issues[-80:]:
        for item in issue["timeline"]:
            if item["type"] == "comment":
                item["body"] = "Thanks, looking."
    outcome, requests = served(world, "octo", "loop")
    assert [e["operation"] for e in requests] == ["CorrectionWindow", "CorrectionWindow", "CorrectionDetails"]
    assert outcome.usage.points <= POINTS
    assert len(outcome.window) == 30
    assert sum(1 for read in outcome.read_issues if read.issue.body) <= 100
