"""The local `learnings` commands send no request, so they start without the network stack.

gql, aiohttp and graphql-core are most of a command's start-up time. Checked in a fresh
interpreter with `-X importtime`, which names every module imported (`--help`, `--version`,
`sync --help` and `memory show --help` are checked with the `corrections` ones in
tests/corrections/test_lazy_start.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NETWORK = {"aiohttp", "gql", "graphql", "multidict", "yarl"}


def _run(cwd: Path, *arguments: str) -> tuple[int, set[str]]:
    """Exit status and the top-level packages `python -m learnings ...` imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "learnings", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    modules = {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return done.returncode, modules


def test_the_local_commands_load_no_network_stack(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    commands = [
        ["add", "Integration tests need TEST_DB_URL", "--paths", "test/**"],
        ["render", "--paths", "test/a.py"],
    ]
    for arguments in commands:
        status, modules = _run(tmp_path, *arguments)
        assert status == 0, arguments
        assert "learnings" in modules  # the command ran and importtime saw it
        assert not modules & NETWORK, f"learnings {arguments} imported {sorted(modules & NETWORK)}"
