"""The bench's goals and docs/performance.md's "Goals" table are one table (issue 26)."""

from __future__ import annotations

import re
from pathlib import Path

from bench.goals import GOALS, goals

DOC = Path(__file__).resolve().parents[2] / "docs" / "performance.md"


def _documented() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Goals") :]
    section = section[: section.index("\n\n", section.index("| goal |"))]
    return re.findall(r"^\| `([a-z0-9_]+)` \|", section, flags=re.MULTILINE)


def test_the_docs_list_every_goal_of_the_bench_in_its_order() -> None:
    assert _documented() == [goal.name for goal in GOALS]


def test_a_goal_the_run_did_not_measure_is_never_met() -> None:
    out = {
        "graphql": {"requests": 2, "points": 2, "waves": 3},
        "common_case": {"graphql": {"requests": 2, "points": 2, "waves": 2}},
        "ratios": {"requests": 30.0, "wall": 1.2, "bytes": 2.0},
        "cold_start_s": 0.5,
        "render_ms": 5.0,
    }
    judged = goals(out)
    assert judged["wall_vs_rest_200ms"] == {**judged["wall_vs_rest_200ms"], "value": None, "met": None}
    assert judged["cold_step"]["met"] is None and judged["first_page_on_github"]["how"] == "estimated"
    assert judged["wall_vs_rest_50ms"]["met"] is False and judged["waves_common"]["met"] is True


def test_a_run_of_one_mode_judges_only_its_own_goals() -> None:
    judged = goals({"quality_scale": {"cpu_ratio": 3.3}})
    assert judged["quality_cpu_growth"]["met"] is True
    assert (
        judged["graphql_requests_common"]["met"] is None and judged["process_vs_rest_50ms"]["value"] is None
    )
