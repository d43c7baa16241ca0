"""The root conftest is loaded by every pytest run: importing it must not import the emulator.

A run of pure tests (`pytest tests/assistant`) then starts without the emulator, aiohttp and gql;
the fixtures that start a server import them when a test asks for one.
"""

from __future__ import annotations

import os
import shutil
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


def test_a_fresh_clones_bootstrap_says_what_it_installs_before_the_installer_starts(tmp_path: Path) -> None:
    """On a fresh clone scripts/bootstrap spends 5-25 s in a quiet installer: its first line says what it
    is doing before the venv is made. Here the interpreter is one that cannot make a venv, so the
    run stops right after that line; the line must already have been written."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "bootstrap", tmp_path / "scripts" / "bootstrap")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    done = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "bootstrap")],
        cwd=tmp_path,
        env={**os.environ, "PYTHON": "false"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert done.stderr.splitlines()[0] == (
        "scripts/bootstrap: installing the project with its test and lint tools into .venv ..."
    )
    assert not (tmp_path / ".venv").exists()
