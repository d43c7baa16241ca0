"""The root conftest is loaded by every pytest run: importing it must not import the emulator.

A run of pure tests (`pytest tests/assistant`) then starts without the emulator, aiohttp and gql;
the fixtures that start a server import them when a test asks for one.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER_STACK = ("emulator", "aiohttp", "gql", "graphql")


def test_the_root_conftest_imports_no_server_stack() -> None:
    code = (
        "import runpy, sys\n"
        "runpy.run_path('tests/conftest.py')\n"
        f"print(' '.join(name for name in {SERVER_STACK!r} if name in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == []


def test_a_run_says_what_it_does_from_its_first_second() -> None:
    """pytest collects silently (a minute for the whole suite on two cores): the root conftest's
    plugin (tests/collect_progress.py) says so at once, and how far it got when it is done; under
    pytest-xdist, the controller while its workers collect."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests/assistant/test_version.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "collecting the tests (each module compiled and its asserts rewritten) ..."
    assert any(line.startswith("collected ") and " tests from 1 modules in " in line for line in lines)
    # Under pytest-xdist, as scripts/test runs it, the workers' output is not shown: the
    # controller says they are collecting, then how many tests they found.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "tests/assistant/test_version.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert "collecting the tests in 2 workers (each module compiled and its asserts rewritten) ..." in lines
    assert any(line.startswith("collected ") and " tests in 2 workers in " in line for line in lines)
