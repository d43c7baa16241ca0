"""The busy month in the bench: what a read and the monthly report cost and cover (issue 26).

The world is `bench.busy_month` (2,976 issues, one every 15 minutes, 90 % analysed, 620 pull
requests, 347 accepted learnings). Measured: one `corrections read` (requests, points, waves)
and `corrections quality --month 2026-11` (what part of the month's 2,535 first analyses it
counts, at what cost: requests, points of its budget, seconds), at the default budget and at a
budget too small for the month, which must end the read and say which part it covers.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.busy_month import busy_month
from bench.measure import NAME, OWNER, TOKEN, config_for, run_graphql
from corrections.commands.cli import main
from emulator import Server, serve_in_thread
from emulator.store import Store
from emulator.world import parse_world

MONTH = "2026-11"
SMALL_BUDGET = 10  # points: about a third of the month's scan
# Seconds the report's read may take: the points budget is what is judged here, and on a loaded
# machine the month's read outlasted the default 45 s (a third of the month counted, at load 10).
TIME_BUDGET_S = 600


def _quality(server: Server, *budget: str) -> dict[str, Any]:
    before = len(server.log())
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        previous = os.environ.get("GITHUB_TOKEN")
        os.environ["GITHUB_TOKEN"] = TOKEN
        try:
            argv = ["quality", "--repo", f"{OWNER}/{NAME}", "--api-url", server.url, "--out", out]
            argv += ["--time-budget", str(TIME_BUDGET_S)]
            status = main([*argv, "--month", MONTH, *budget])
        finally:
            if previous is None:
                os.environ.pop("GITHUB_TOKEN", None)
            else:
                os.environ["GITHUB_TOKEN"] = previous
        written = json.loads((Path(out) / "quality.json").read_text(encoding="utf-8"))
    served = server.log()[before:]
    month = next((m for m in written["months"] if m["month"] == MONTH), None)
    return {
        "status": status,
        "requests": len(served),
        "points": sum(int(entry["cost"] or 0) for entry in served),
        "counted": month["analyses"] if month else 0,
        "complete": bool(month and month["complete"]),
        "covers_after": month["covers_after"] if month else None,
        "budget": written.get("budget"),
        "seconds": round(time.perf_counter() - started, 2),
    }


def busy_case(latency_ms: int = 50) -> dict[str, Any]:
    """The read and the month's report on the busy month (waves need a latency to be seen)."""
    started = time.perf_counter()
    month = busy_month()
    store = Store(parse_world(month.world))
    loaded = time.perf_counter() - started
    with serve_in_thread(store, latency_ms=latency_ms) as server:
        read = run_graphql(server, config_for(30))
        quality = _quality(server)
        small = _quality(server, "--budget", str(SMALL_BUDGET))
    return {
        "world": {
            "issues": len(month.world["issues"]),
            "pull_requests": len(month.world["pull_requests"]),
            "sources": len(month.sources),
            "first_analyses": month.first_analyses(MONTH),
            "build_s": round(loaded, 2),
        },
        "read": {"requests": read.requests, "points": read.points, "waves": read.waves},
        "quality": quality,
        "quality_small_budget": small,
    }
