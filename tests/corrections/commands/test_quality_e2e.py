"""`corrections quality` end to end: the numbers against a hand count, the files against snapshots."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from corrections.commands.cli import main
from tests.emulation import DEMO, Emulators

HERE = Path(__file__).resolve().parent
SMALL = HERE / "quality_world.json"
RunQuality = Callable[..., tuple[int, Path]]


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def run_quality(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, emulate: Emulators) -> RunQuality:
    """Serve a world, run `corrections quality` on it, return the status and the output folder."""

    def run(world: Path, *extra: str) -> tuple[int, Path]:
        repository = load(world)["repository"]
        monkeypatch.setenv("GITHUB_TOKEN", "quality-token")
        out = tmp_path / "quality"
        server = emulate(world)
        status = main(
            [
                "quality",
                "--repo",
                f"{repository['owner']}/{repository['name']}",
                "--api-url",
                server.url,
                "--out",
                str(out),
                *extra,
            ]
        )
        return status, out

    return run


def test_small_world_matches_the_hand_count(run_quality: Callable[..., tuple[int, Path]]) -> None:
    status, out = run_quality(SMALL, "--month", "2026-09")
    assert status == 0
    written = load(out / "quality.json")
    expected = load(HERE / "quality_world.expected.json")
    assert written["months"] == expected["months"]
    assert written["month"] == "2026-09"
    assert written["complete_after"] is None  # every issue was read
    assert written["note"] is None


def test_demo_report_snapshot(
    run_quality: Callable[..., tuple[int, Path]], snapshot: SnapshotAssertion
) -> None:
    status, out = run_quality(DEMO, "--month", "2026-11")
    assert status == 0
    assert (out / "quality.md").read_text(encoding="utf-8") == snapshot(name="quality.md")
    written = load(out / "quality.json")
    assert written["cost"]["requests"] >= 1
    written["cost"] = "(measured)"
    assert json.dumps(written, ensure_ascii=False, indent=2) == snapshot(name="quality.json")
    svg = (out / "quality.svg").read_text(encoding="utf-8")
    assert svg == snapshot(name="quality.svg")
    root = ET.fromstring(svg)  # noqa: S314 - our own output
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_the_report_shows_its_chart_in_a_step_summary(run_quality: Callable[..., tuple[int, Path]]) -> None:
    # Before: `![...](quality.svg)`, a relative image that a step summary shows broken.
    status, out = run_quality(DEMO, "--month", "2026-11")
    assert status == 0
    text = (out / "quality.md").read_text(encoding="utf-8")
    assert "![" not in text and "](quality.svg)" not in text
    table = text.split("## Precision per label, by month", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert rows and all("▰" in row or "▱" in row for row in rows)
    assert "| `bug` | ▰▰▰▰▰▰▰▰▰▱ 93% (13/14) | ▰▰▰▰▰▰▰▰▱▱ 79% (11/14) |" in table


def test_default_month_is_the_latest_read(run_quality: Callable[..., tuple[int, Path]]) -> None:
    status, out = run_quality(SMALL)
    assert status == 0
    assert load(out / "quality.json")["month"] == "2026-10"
    assert "# Quality of first analyses in octo/quality: 2026-10" in (out / "quality.md").read_text(
        encoding="utf-8"
    )


def test_a_small_bound_marks_older_months_partial(run_quality: Callable[..., tuple[int, Path]]) -> None:
    status, out = run_quality(SMALL, "--max-analyzed", "3")
    assert status == 0
    written = load(out / "quality.json")
    # The three most recently active analyzed issues are #11, #10 and #9 (all October).
    assert [m["month"] for m in written["months"]] == ["2026-10"]
    assert written["months"][0]["complete"] is False
    assert written["months"][0]["analyses"] == 3
    assert written["complete_after"] == "2026-10-08T10:31:00Z"
    # Issue 26: which part of the month the numbers cover is said, not only that it is partial.
    assert written["months"][0]["covers_after"] == "2026-10-08T10:31:00Z"
    assert (
        "it counts the first analyses of the issues active after 2026-10-08 10:31 UTC, where the "
        "read stopped at its bound (3 analysed issues, 5 pages of 100)"
    ) in (out / "quality.md").read_text(encoding="utf-8")


def test_bad_month_is_a_usage_error(run_quality: Callable[..., tuple[int, Path]]) -> None:
    status, _ = run_quality(SMALL, "--month", "2026-13")
    assert status == 2


def test_the_report_is_the_same_when_github_times_out_on_full_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, emulate: Emulators
) -> None:
    """`corrections quality` reads through the reader: under the server-time model (1 ms a node,
    so 100 issues x 100 timeline items pass GitHub's 10 s) it halves its pages and counts the same."""
    monkeypatch.setenv("GITHUB_TOKEN", "quality-token")
    reports: list[Any] = []
    for server_time in (None, {"ms_per_node": 1, "answer": "timeout_200"}):
        server = emulate(DEMO, server_time=server_time) if server_time else emulate(DEMO)
        out = tmp_path / f"quality-{len(reports)}"
        status = main(["quality", "--repo", "octo/demo", "--api-url", server.url, "--out", str(out)])
        assert status == 0
        reports.append(load(out / "quality.json"))
        timed_out = [e.get("timed_out", False) for e in server.log() if e.get("endpoint") == "graphql"]
        assert timed_out.count(True) == (1 if server_time else 0)
    assert reports[0]["months"] == reports[1]["months"]
    assert reports[0]["cost"]["requests"] < reports[1]["cost"]["requests"]
