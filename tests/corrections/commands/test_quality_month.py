"""`corrections quality --month` on a busy month, end to end: every first analysis of the month is
counted (not the 100 of a window), the scan ends at the month's start, and a points budget that
ends the read first is said, with the part of the month the numbers cover (issue 26)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bench.busy_month import BusyMonth, BusyMonthSpec, busy_month
from corrections.commands.cli import main
from tests.emulation import Emulators
from tests.kit.world import TIME

MONTH = "2026-11"
SPEC = BusyMonthSpec(issues=300, pull_requests=60, remember=20, proposals=15, ignored=4)


def _shifted(value: Any, by: timedelta) -> Any:
    """Every time in `value` moved by `by`."""
    if isinstance(value, dict):
        return {key: _shifted(item, by) for key, item in value.items()}
    if isinstance(value, list):
        return [_shifted(item, by) for item in value]
    if isinstance(value, str):
        try:
            moment = datetime.strptime(value, TIME)
        except ValueError:
            return value
        return (moment + by).strftime(TIME)
    return value


def _month_with_october(older: int) -> BusyMonth:
    """The busy month whose `older` oldest issues happened 30 days earlier, in October."""
    world = busy_month(SPEC).world
    issues = sorted(world["issues"], key=lambda issue: issue["number"])
    moved = {issue["number"] for issue in issues[:older]}
    world["issues"] = [
        _shifted(issue, timedelta(days=-30)) if issue["number"] in moved else issue
        for issue in world["issues"]
    ]
    return BusyMonth(world=world)


def _last_activity(issue: dict[str, Any]) -> str:
    times: list[str] = [issue["created_at"], *(item["at"] for item in issue["timeline"])]
    return max(times)


def _quality(
    emulate: Emulators, world: dict[str, Any], tmp_path: Path, *extra: str
) -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
    server = emulate(world)
    out = tmp_path / "quality"
    argv = ["quality", "--repo", "octo/bench", "--api-url", server.url, "--out", str(out), "--month", MONTH]
    assert main([*argv, *extra]) == 0
    written = json.loads((out / "quality.json").read_text(encoding="utf-8"))
    return written, (out / "quality.md").read_text(encoding="utf-8"), server.log()


def _month(written: dict[str, Any], month: str = MONTH) -> dict[str, Any]:
    found: dict[str, Any] = next(m for m in written["months"] if m["month"] == month)
    return found


@pytest.fixture(autouse=True)
def _token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "quality-token")


def test_every_first_analysis_of_the_month_is_counted(emulate: Emulators, tmp_path: Path) -> None:
    """Failed before: 100 of the month's 135 (the window of --max-analyzed), the month partial."""
    month = _month_with_october(150)
    total = month.first_analyses(MONTH)
    assert total > 100  # more than a window holds
    written, text, log = _quality(emulate, month.world, tmp_path)
    november = _month(written)
    assert (november["analyses"], november["complete"], november["covers_after"]) == (total, True, None)
    # The scan stops at the first page that reaches an issue last active before November began:
    # the 150 October issues after it are not read.
    scans = [entry for entry in log if entry.get("operation") == "CorrectionWindow"]
    assert len(scans) == 2
    assert written["budget"] == {"points": 100, "spent": written["cost"]["points"], "ended": False}
    assert _month(written, "2026-10")["complete"] is False  # October was read in part only
    assert "This month is partial" not in text
    assert "within a budget of 100 points" in text
    # The recurrences and receipts come from the same read: every analysis of the month has its figures.
    assert november["recurrences"]["analyses"] == total
    assert november["recurrences"]["corrections"] >= november["corrected"]
    # The scan's last page reached far enough into October to rebuild every context whole.
    assert november["contexts_partial"] == 0 and "Reconstructed in part" not in text
    assert november["contexts_whole_after"] is None


def test_a_small_budget_ends_the_read_and_says_which_part_it_covers(
    emulate: Emulators, tmp_path: Path
) -> None:
    month = busy_month(SPEC)
    written, text, log = _quality(emulate, month.world, tmp_path, "--budget", "3")
    november = _month(written)
    assert written["budget"]["ended"] is True
    assert november["complete"] is False
    edge = november["covers_after"]
    assert edge is not None
    # The numbers cover the month's first analyses on the issues active after the edge, all of them.
    covered = [
        issue
        for issue in month.world["issues"]
        if _last_activity(issue) >= edge and BusyMonth(world={"issues": [issue]}).first_analyses(MONTH)
    ]
    assert 0 < november["analyses"] == len(covered) < month.first_analyses(MONTH)
    assert len([entry for entry in log if entry.get("operation") == "CorrectionWindow"]) == 1
    spent = written["cost"]["points"]
    assert (
        f"it counts the first analyses of the issues active after {edge[:10]} {edge[11:16]} UTC, where "
        f"the read stopped at its points budget (3 points; {spent} spent)"
    ) in text
    assert "the budget ended the read" in text
    # The analyses just after the edge had windows reaching below it, which this read did not see:
    # their contexts are rebuilt in part, and the report says how many (the later ones whole).
    assert 0 < november["contexts_partial"] < november["analyses"]
    assert f"- Reconstructed in part: {november['contexts_partial']} of those contexts" in text
    # Which part: the last analysis rebuilt in part, after which every context is whole.
    whole_after = november["contexts_whole_after"]
    assert whole_after is not None and edge <= whole_after
    assert f"The last of them is the analysis made at {whole_after[:10]} {whole_after[11:16]} UTC" in text


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (("--max-analyzed", "50"), "--max-analyzed: not with --month"),
        (("--scan-pages", "3"), "--scan-pages: not with --month"),
        (("--budget", "0"), "--budget: must be at least 1 point"),
    ],
)
def test_the_window_options_are_not_taken_with_a_month(
    extra: tuple[str, ...], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["quality", "--repo", "octo/bench", "--api-url", "http://127.0.0.1:9", "--month", MONTH]
    assert main([*argv, *extra]) == 2
    assert says in capsys.readouterr().err


def test_a_budget_needs_a_month(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["quality", "--repo", "octo/bench", "--api-url", "http://127.0.0.1:9", "--budget", "10"]
    assert main(argv) == 2
    assert "--budget: only with --month" in capsys.readouterr().err
