"""Lines that make the same decision are collapsed into one (issue 31): a long history stays
short, each line keeps its nearest examples, and the receipt holds every issue of every line."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from assistant.config import Config, ContextConfig
from bench.loop_world import arrivals, blind_model, history_world
from corrections.read.analysed import AnalysedIssue
from corrections.read.options import ReadOptions
from corrections.read.outcome import ReadOutcome
from corrections.read.round_trips import read_corrections
from corrections.render.context import render_context
from corrections.render.context_folder import read_index
from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world
from queries.client import GitHubClient

FOUND = arrivals(8, 6, 7)  # 48 issues, six topics in turn; the blind model errs the same way each time


def read(analysed: AnalysedIssue | None = None) -> ReadOutcome:
    async def run(url: str) -> ReadOutcome:
        async with GitHubClient(url, "t0ken") as client:
            config = Config(context=ContextConfig(max_analyzed=30))
            request = ReadOptions(owner="octo", name="loop", config=config, analysed=analysed)
            return await read_corrections(client, request, lambda _: None)

    with serve_in_thread(Store(parse_world(history_world(FOUND, blind_model)))) as server:
        return asyncio.run(run(server.url))


def _fenced(markdown: str) -> list[str]:
    lines = markdown.splitlines()
    fences = [i for i, line in enumerate(lines) if line.startswith("```")]
    return lines[fences[0] + 1 : fences[1]]


def test_one_line_per_decision_with_its_count_and_examples(tmp_path: Path) -> None:
    outcome = read()
    files = render_context(outcome, outcome.config, ())
    lines = _fenced(files.top["corrections.md"])
    corrected = outcome.corrected
    assert len(corrected) > 20  # the window and the horizon: many corrected issues ...
    assert len(lines) <= 6  # ... and one line per decision the maintainer made
    slow = next(line for line in lines if "maintainer removed label performance" in line)
    assert "maintainer added label bug" in slow  # the words stay before the label names
    count = sum(1 for c in corrected if c.labels_removed == ("performance",))
    assert f"the same correction on {count} issues, also #" in slow
    document = json.loads(files.top["corrections.json"])
    assert sorted(n for line in document["lines"] for n in line) == sorted(c.number for c in corrected)
    assert len(document["lines"]) == len(lines)
    # The receipt holds what was shown: every issue of every line, the collapsed ones too.
    (tmp_path / "corrections.json").write_text(files.top["corrections.json"], encoding="utf-8")
    assert sorted(read_index(tmp_path).receipt(tmp_path).corrections) == sorted(c.number for c in corrected)
    # The prompt tries each line's nearest examples first, line by line, then the rest.
    examples = [n for line in document["lines"] for n in line[:3]]
    assert list(files.corrected[: len(examples)]) == examples


def test_a_collapsed_line_leads_with_the_issue_nearest_the_analysed_one() -> None:
    analysed = AnalysedIssue(number=999, title="Slow sync of photos", body="Seen on version 2.1.")
    outcome = read(analysed)
    lines = _fenced(render_context(outcome, outcome.config, ()).top["corrections.md"])
    assert "Slow " in lines[0].split(" | ")[0] and "removed label performance" in lines[0]
