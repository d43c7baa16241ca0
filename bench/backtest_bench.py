"""`python -m bench --backtest`: what `corrections backtest` costs on the 1,000-issue world.

The last 100 first analyses, the stand-in that follows its context as the model: the read's
requests and points (the goal: at most 10 of each, whatever the number of analyses), the model's
calls, and the backtest's own time beside them (the goal: under 5 s, everything but the model).
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


def backtest_bench(
    issues: int = 1_000, last: int = 100, seed: int = 7, *, outsiders: bool = True
) -> dict[str, Any]:
    """One backtest on a generated world, measured; the figures `--json` prints.

    `outsiders`: 👎 from people outside the collaborator list, each one REST look-up of the read.
    """
    from corrections.commands.cli import main

    spec = WorldSpec(issues=issues, seed=seed, outsider_thumbs_down=outsiders)
    store = Store(parse_world(generate(spec)))
    model = f"{sys.executable} -m bench.stand_ins following"
    with serve_in_thread(store) as server, tempfile.TemporaryDirectory() as state:
        os.environ.setdefault("GITHUB_TOKEN", "bench-token")
        out, err = io.StringIO(), io.StringIO()
        started = time.perf_counter()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), contextlib.chdir(ROOT):
            status = main(
                [
                    "backtest",
                    "--repo",
                    "octo/bench",
                    "--api-url",
                    server.url,
                    "--model",
                    model,
                    "--last",
                    str(last),
                    "--state-dir",
                    state,
                    "--json",
                ]
            )
        wall = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"backtest failed: {err.getvalue()[-500:]}")
    document = json.loads(out.getvalue())
    log = err.getvalue()
    own, model_s = _OWN.search(log), _MODEL.search(log)
    return {
        "world_issues": issues,
        "outsider_thumbs_down": outsiders,
        "analyses": document["analyses"],
        "cost": document["cost"],
        "model_calls": 2 * document["analyses"],
        "model_s": float(model_s.group(1)) if model_s else None,
        "bookkeeping_s": float(own.group(1)) if own else None,
        "wall_s": round(wall, 2),
        "goals": {
            "requests <= 10": document["cost"]["requests"] <= 10,
            "points <= 10": document["cost"]["points"] <= 10,
            "bookkeeping < 5 s": own is not None and float(own.group(1)) < 5,
        },
    }
