"""`python -m bench --backtest`: what `corrections backtest` costs on the 1,000-issue world.

The last 100 first analyses, the stand-in that follows its context as the model: the read's
requests and points (the goal: at most 10 of each, whatever the number of analyses), the model's
calls, and the backtest's own time beside them (the goal: under 5 s, everything but the model);
then the same backtest run again from its state folder, as a resumed or repeated one is.

Run as it is meant to be, with a maintainer's token (the world's `tokens` make it a pusher's, who
may list the collaborators: one request for everyone's permission), then with a workflow's token
(the world's viewer, `github-actions`: the list refused, a look-up per person), on the same world
and the model's answers from the first run's cache: the same scores, the cost of each token.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.worlds import PUSHERS, WorldSpec, generate
from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world

MAINTAINER_TOKEN = "bench-maintainer-token"  # noqa: S105 - the world's `tokens` make it a pusher's (alice)
WORKFLOW_TOKEN = "bench-workflow-token"  # noqa: S105 - the world's viewer, github-actions: no push access

ROOT = Path(__file__).resolve().parent.parent
_OWN = re.compile(r"the backtest's own work ([0-9.]+) s")
_MODEL = re.compile(r"model ([0-9.]+) s")


def _backtest(url: str, state: str, last: int, token: str) -> tuple[dict[str, Any], str, float]:
    """One `corrections backtest --json` run with `token`: its document, its stderr and its wall time."""
    from corrections.commands.cli import main

    model = f"{sys.executable} -m bench.stand_ins following"
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    argv = ["backtest", "--repo", "octo/bench", "--api-url", url, "--model", model]
    argv += ["--last", str(last), "--state-dir", state, "--json"]
    before = os.environ.get("GITHUB_TOKEN")
    os.environ["GITHUB_TOKEN"] = token
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), contextlib.chdir(ROOT):
            status = main(argv)
    finally:
        if before is None:
            os.environ.pop("GITHUB_TOKEN", None)
        else:
            os.environ["GITHUB_TOKEN"] = before
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
    """One backtest on a generated world with a maintainer's token, measured, then the same run
    again (resumed: its answers and the permissions it read come from its state folder), then one
    with a workflow's token (its own state folder, the model's answers copied from the first);
    the figures `--json` prints.

    `outsiders`: 👎 from people outside the collaborator list, each one REST look-up of a read
    that cannot list the collaborators.
    """
    from corrections.commands.backtest_cache import CACHE_FILE

    spec = WorldSpec(issues=issues, seed=seed, outsider_thumbs_down=outsiders)
    world = generate(spec) | {"tokens": {MAINTAINER_TOKEN: PUSHERS[0]}}
    store = Store(parse_world(world))
    with (
        serve_in_thread(store) as server,
        tempfile.TemporaryDirectory() as state,
        tempfile.TemporaryDirectory() as workflow_state,
    ):
        document, log, wall = _backtest(server.url, state, last, MAINTAINER_TOKEN)
        again, again_log, _ = _backtest(server.url, state, last, MAINTAINER_TOKEN)
        shutil.copy(Path(state) / CACHE_FILE, Path(workflow_state) / CACHE_FILE)
        workflow, _, _ = _backtest(server.url, workflow_state, last, WORKFLOW_TOKEN)
    own = _seconds(_OWN, log)
    cost, again_cost, workflow_cost = document["cost"], again["cost"], workflow["cost"]
    return {
        "world_issues": issues,
        "outsider_thumbs_down": outsiders,
        "analyses": document["analyses"],
        "cost": cost,
        "cost_run_again": again_cost,
        "cost_workflow_token": workflow_cost,
        "same_scores_run_again": again["runs"] == document["runs"],
        "same_scores_workflow_token": workflow["runs"] == document["runs"],
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
            "same scores with a workflow token": workflow["runs"] == document["runs"],
            "bookkeeping < 5 s": own is not None and own < 5,
        },
    }
