"""`python -m bench --backtest`: what `corrections backtest` costs on the 1,000-issue world.

The last 100 first analyses, the stand-in that follows its context as the model: the read's
requests and points (the goal: at most 10 of each, whatever the number of analyses), the model's
calls, and the backtest's own time beside them (the goal: under 5 s, everything but the model);
then the same backtest run again from its state folder, as a resumed or repeated one is.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.worlds import WorldSpec, generate
from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world

ROOT = Path(__file__).resolve().parent.parent
_OWN = re.compile(r"the backtest's own work ([0-9.]+) s")
_MODEL = re.compile(r"model ([0-9.]+) s")


def _backtest(url: str, state: str, last: int) -> tuple[dict[str, Any], str, float]:
    """One `corrections backtest --json` run: its document, its stderr and its wall time."""
    from corrections.commands.cli import main

    model = f"{sys.executable} -m bench.stand_ins following"
    os.environ.setdefault("GITHUB_TOKEN", "bench-token")
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    argv = ["backtest", "--repo", "octo/bench", "--api-url", url, "--model", model]
    argv += ["--last", str(last), "--state-dir", state, "--json"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), contextlib.chdir(ROOT):
        status = main(argv)
    wall = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"backtest failed: {err.getvalue()[-500:]}")
    return json.loads(out.getvalue()), err.getvalue(), wall


def _seconds(pattern: re.Pattern[str], log: str) -> float | None:
    found = pattern.search(log)
    return float(found.group(1)) if found else None


def backtest_bench(
    issues: int = 1_000, last: int = 100, seed: int = 7, *, outsiders: bool = True
) -> dict[str, Any]:
    """One backtest on a generated world, measured, then the same run again (resumed: its answers
    and the permissions it read come from its state folder); the figures `--json` prints.

    `outsiders`: 👎 from people outside the collaborator list, each one REST look-up of the read.
    """
    spec = WorldSpec(issues=issues, seed=seed, outsider_thumbs_down=outsiders)
    store = Store(parse_world(generate(spec)))
    with serve_in_thread(store) as server, tempfile.TemporaryDirectory() as state:
        document, log, wall = _backtest(server.url, state, last)
        again, again_log, _ = _backtest(server.url, state, last)
    own = _seconds(_OWN, log)
    cost, again_cost = document["cost"], again["cost"]
    return {
        "world_issues": issues,
        "outsider_thumbs_down": outsiders,
        "analyses": document["analyses"],
        "cost": cost,
        "cost_run_again": again_cost,
        "same_scores_run_again": again["runs"] == document["runs"],
        "model_calls": 2 * document["analyses"],
        "model_s": _seconds(_MODEL, log),
        "bookkeeping_s": own,
        "bookkeeping_run_again_s": _seconds(_OWN, again_log),
        "wall_s": round(wall, 2),
        "goals": {
            "requests <= 10": cost["requests"] <= 10,
            "points <= 10": cost["points"] <= 10,
            "run again: requests <= 10": again_cost["requests"] <= 10,
            "run again: points <= 10": again_cost["points"] <= 10,
            "bookkeeping < 5 s": own is not None and own < 5,
        },
    }
