"""A costly fixture's value computed once per run, not once in each pytest-xdist worker.

Work stealing (`--dist worksteal`) moves queued tests between workers, so the tests of one
module can end up in two or more of them, and a module-scoped fixture is then built in each:
the conformance scenario (13 commands against the emulator, twice) took 25 s of CPU every time.
Under xdist the first worker to ask computes the value under an exclusive lock on a file in the
run's shared temporary folder and writes it there as JSON; the others wait for the lock and read
it. Without xdist it is computed in place. The pattern is the one pytest-xdist documents for a
session fixture that must run once.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from typing import Any

import pytest


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    compute: Callable[[], Any],
) -> Any:
    """`compute()`'s value (plain JSON: dicts, lists, strings, numbers), the same in every worker.

    A worker that finds the file another wrote reads it; if computing fails, nothing is written
    and the next worker to ask computes it again (and fails the same way, in its own test)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return json.loads(json.dumps(compute()))
    shared = tmp_path_factory.getbasetemp().parent  # the same folder for every worker of a run
    value_file = shared / f"{name}.json"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if value_file.exists():
            return json.loads(value_file.read_text(encoding="utf-8"))
        text = json.dumps(compute())
        partial = value_file.with_suffix(".partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(value_file)
        return json.loads(text)  # as the other workers read it: lists, never tuples
