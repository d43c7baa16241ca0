"""`corrections backtest`'s model and caches: the user's model command run on one prompt, and
the two files that spare a rerun its cost (in $XDG_STATE_HOME/correction-reader by default).

Each answer is kept in a cache file (one JSON line per answer, keyed by the repository, the issue,
`max_analyzed`, the prompt's hash and the command), written as soon as it arrives: an interrupted
backtest, run again, pays only for the answers it did not get. Beside it, the permissions the read
found (one REST request a person where GitHub refuses its collaborator list), reused for a day:
run again, the backtest pays its GraphQL reads only. The sweep itself is
corrections/quality/backtest_run.py, which does no I/O.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path

from corrections.quality.backtest_run import ModelFailed


def state_dir() -> Path:
    """Where the answers are cached: $XDG_STATE_HOME/correction-reader, else ~/.local/state/..."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "correction-reader"


def run_model(model: Sequence[str], prompt: str, timeout: float) -> str:
    """The command's stdout for the prompt on its stdin; raises ModelFailed.

    The command runs in a process group of its own: on a timeout the whole group is killed (a
    wrapper's children too, which would otherwise keep running and hold its output open)."""
    try:
        process = subprocess.Popen(
            list(model),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
    except FileNotFoundError as error:
        raise ModelFailed(f"--model: {model[0]!r} not found") from error
    try:
        out, err = process.communicate(prompt, timeout=timeout)
    except subprocess.TimeoutExpired as error:
        _kill_group(process)
        raise ModelFailed(f"the model did not answer within {timeout:g} s") from error
    if process.returncode != 0:
        last = (err.strip().splitlines() or [""])[-1][:300]
        raise ModelFailed(f"the model exited with status {process.returncode}: {last}")
    return out


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Kill the command's process group, then reap the command."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate()


def model_argv(text: str) -> list[str]:
    """`--model CMD` split as a shell would split it, never run by one; ValueError when empty."""
    argv = shlex.split(text)
    if not argv:
        raise ValueError("--model: the command is empty")
    return argv
