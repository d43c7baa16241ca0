"""`corrections quality --month` at two sizes: does its CPU grow as the month's analyses do?

Two busy months (bench/busy_month.py) whose first analyses all fall in November: about 800 and
about 4,000 of them (one new issue every 15 and every 9.5 minutes). Each report runs as its own
process, `python -m corrections quality --month 2026-11`, against the emulator served from this
process, so the CPU seconds are the report's alone (the operating system's accounting of the
finished child: user + system). The budget is wide enough that both reports count every analysis
(`counted` says so); the goal (bench/goals.py) is that 5x the analyses cost at most 7x the CPU.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.busy_month import BusyMonthSpec, busy_month
from bench.measure import NAME, OWNER, TOKEN
from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world

MONTH = "2026-11"
BUDGET = 400  # points: wider than either month's scan, so both count every analysis
# Seconds the read may take: on a loaded machine the 4,000 analyses' read outlasts the default 45 s
# and the report counts only part of the month (its CPU is then no figure of the whole).
TIME_BUDGET_S = 900
NOVEMBER_S = 29 * 86_400  # the span the issues are spread over, ending 2026-11-30 12:00 UTC
ANALYSED = 0.9


@dataclass(frozen=True)
class Size:
    """One month to report on: how many first analyses it should hold."""

    analyses: int

    @property
    def spec(self) -> BusyMonthSpec:
        issues = round(self.analyses / ANALYSED)
        spacing = min(900, NOVEMBER_S // issues)
        return BusyMonthSpec(
            issues=issues,
            analysed=ANALYSED,
            spacing_s=spacing,
            remember=0,
            proposals=0,
            pull_requests=0,
            ignored=0,
        )


SIZES = (Size(800), Size(4_000))


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def report_cpu(size: Size, runs: int = 1) -> dict[str, Any]:
    """The month's report as a process, `runs` times: CPU seconds of each, what it counted."""
    month = busy_month(size.spec)
    store = Store(parse_world(month.world))
    seconds: list[float] = []
    counted = 0
    with serve_in_thread(store, latency_ms=0) as server, tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "GITHUB_TOKEN": TOKEN}
        env.pop("GITHUB_ACTIONS", None)
        argv = [sys.executable, "-m", "corrections", "quality", "--repo", f"{OWNER}/{NAME}"]
        argv += ["--api-url", server.url, "--out", out, "--month", MONTH, "--budget", str(BUDGET)]
        argv += ["--time-budget", str(TIME_BUDGET_S)]
        for _ in range(runs):
            before = _cpu_of_children()
            subprocess.run(argv, env=env, check=True, capture_output=True, timeout=600)
            seconds.append(round(_cpu_of_children() - before, 3))
            written = json.loads((Path(out) / "quality.json").read_text(encoding="utf-8"))
            mine = next((m for m in written["months"] if m["month"] == MONTH), None)
            counted = int(mine["analyses"]) if mine else 0
    seconds.sort()
    return {
        "first_analyses": month.first_analyses(MONTH),
        "counted": counted,
        "cpu_s": seconds,
        "cpu_median_s": seconds[len(seconds) // 2],
    }


def quality_scale(runs: int = 1) -> dict[str, Any]:
    """Both sizes, and the CPU ratio of the larger to the smaller (medians of `runs` each)."""
    small, large = (report_cpu(size, runs) for size in SIZES)
    return {
        "small": small,
        "large": large,
        "analyses_ratio": round(large["first_analyses"] / small["first_analyses"], 2),
        # Unrounded: the goal is judged on the figure itself (a rounded 7.004 would pass as 7.0).
        "cpu_ratio": large["cpu_median_s"] / small["cpu_median_s"],
    }


if __name__ == "__main__":
    print(json.dumps(quality_scale(int(sys.argv[1]) if len(sys.argv) > 1 else 1), indent=2))
