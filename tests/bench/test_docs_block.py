"""docs/performance.md's generated blocks: what `python -m bench ... --write-docs` wrote, unedited,
in the format the bench writes today (bench/docs_block.py); the numbers are the run's own."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bench import docs_block
from bench.goals import GOALS

PAGE = docs_block.PAGE.read_text(encoding="utf-8")
BLOCKS = docs_block.blocks(PAGE)


def test_the_page_holds_the_block_of_every_mode() -> None:
    assert set(BLOCKS) == set(docs_block.FIELDS)


@pytest.mark.parametrize("mode", sorted(docs_block.FIELDS))
def test_a_block_is_what_the_bench_renders_from_its_figures(mode: str) -> None:
    block = BLOCKS[mode]
    stored = docs_block.stored_figures(block)
    assert docs_block.render(stored) == block
    assert stored["mode"] == mode


@pytest.mark.parametrize("mode", sorted(docs_block.FIELDS))
def test_a_block_has_every_figure_of_its_mode_and_only_known_goals(mode: str) -> None:
    stored = docs_block.stored_figures(BLOCKS[mode])
    # A figure the run's JSON no longer held (a key renamed) is None: the format moved on.
    assert list(stored["fields"]) == [label for label, _ in docs_block.FIELDS[mode]]
    assert all(value is not None for value in stored["fields"].values()), stored["fields"]
    assert stored["goals"], "a block judges at least one goal"
    assert set(stored["goals"]) <= {goal.name for goal in GOALS}


def test_writing_replaces_the_block_and_keeps_the_rest(tmp_path: Path) -> None:
    page = tmp_path / "performance.md"
    page.write_text("# Performance\n\nBefore.\n", encoding="utf-8")
    goal: dict[str, Any] = {"value": 6.5, "goal": 7, "unit": "x", "met": True, "how": "m"}
    out = {
        "quality_scale": {"small": {"first_analyses": 794, "cpu_median_s": 5.9}},
        "goals": {"quality_cpu_growth": goal},
    }
    docs_block.write("quality_scale", out, page)
    first = page.read_text(encoding="utf-8")
    assert first.startswith("# Performance\n\nBefore.\n\n<!-- bench:quality_scale")
    goal.update(value=8.25, met=False)
    docs_block.write("quality_scale", out, page)
    second = page.read_text(encoding="utf-8")
    assert second.count("<!-- bench:quality_scale") == 1
    assert "| `quality_cpu_growth` | 7 x | 8.25 | no |" in second
    stored = docs_block.stored_figures(docs_block.blocks(second)["quality_scale"])
    assert stored["fields"]["CPU s, smaller month"] == 5.9
    assert stored["fields"]["CPU s, larger month"] is None


def test_the_figures_say_when_and_under_what_load() -> None:
    found = docs_block.figures("quick", {"goals": {}}, when=datetime(2026, 12, 2, 1, 30, tzinfo=UTC))
    assert found["at"] == "2026-12-02 01:30 UTC"
    assert found["load"] >= 0 and found["cpus"] >= 1
