"""What maintainers kept and what labels mean (issue 31): the nearest kept analyses beside the
corrections, and labels.md's descriptions in the context."""

from __future__ import annotations

import asyncio
import json

from assistant.config import Config, ContextConfig
from bench.loop_world import Arrival, arrivals, blind_model, history_world
from corrections.read.analysed import AnalysedIssue
from corrections.read.options import ReadOptions
from corrections.read.outcome import ReadOutcome
from corrections.read.round_trips import read_corrections
from corrections.render.context import render_context
from corrections.render.nearest import MAX_KEPT
from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world
from queries.client import GitHubClient

FOUND = arrivals(6, 6, 7)


def _model(arrival: Arrival) -> tuple[list[str], int | None]:
    return blind_model(arrival) if arrival.number <= 6 else (list(arrival.truth), None)


def read(analysed: AnalysedIssue) -> ReadOutcome:
    async def run(url: str) -> ReadOutcome:
        async with GitHubClient(url, "t0ken") as client:
            config = Config(context=ContextConfig(max_analyzed=30))
            request = ReadOptions(owner="octo", name="loop", config=config, analysed=analysed)
            return await read_corrections(client, request, lambda _: None)

    with serve_in_thread(Store(parse_world(history_world(FOUND, _model)))) as server:
        return asyncio.run(run(server.url))


def _section(text: str, heading: str) -> list[str]:
    lines = text[text.index(heading) :].splitlines()
    fences = [i for i, line in enumerate(lines) if line.startswith("```")]
    return lines[fences[0] + 1 : fences[1]]


def test_the_nearest_kept_analyses_are_beside_the_corrections() -> None:
    outcome = read(AnalysedIssue(number=999, title="Typo in the proxies page", body=""))
    files = render_context(outcome, outcome.config, ())
    kept = _section(files.top["corrections.md"], "Analyses that maintainers kept")
    assert 0 < len(kept) <= MAX_KEPT
    assert "Typo" in kept[0] and kept[0].endswith("| kept: labels docs")
    document = json.loads(files.top["corrections.json"])
    assert document["kept_analyses"][0] == int(kept[0].split(" ", 1)[0][1:])
    # Their excerpts come right after the corrected issues'.
    corrected = [n for line in document["lines"] for n in line]
    order = [*dict.fromkeys([*files.corrected, *files.window])]
    assert order[len(corrected)] == document["kept_analyses"][0]


def test_label_descriptions_reach_the_context() -> None:
    outcome = read(AnalysedIssue(number=999, title="Crash on exit", body=""))
    files = render_context(outcome, outcome.config, ())
    meanings = _section(files.top["corrections.md"], "What each label means")
    assert '"bug": "something does not work"' in meanings
    assert '"docs": "the documentation"' in meanings
    document = json.loads(files.top["corrections.json"])
    assert {"name": "performance", "description": "slow, or uses too much"} in document["labels"]
    assert document["vocabulary"] == [label["name"] for label in document["labels"]]
