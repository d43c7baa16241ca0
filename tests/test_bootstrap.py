"""scripts/bootstrap: what a fresh clone's first `scripts/demo` or `scripts/test` runs to make .venv.

Installing for real takes 5-25 s and needs the network; here the interpreter and the pinned uv are
stand-ins that write down how they were called, so what bootstrap asks of each, and in which
order, is checked in a fraction of a second, the fallback to pip included.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST_LINE = "scripts/bootstrap: installing the project with its test and lint tools into .venv ..."

# An interpreter that writes down its arguments; `-m venv DIR` makes DIR/bin/python (itself), and
# `-m pip --version` fails, as in a venv that uv made (it has no pip).
PYTHON = """#!/usr/bin/env bash
echo "python $*" >>"$CALLS"
if [ "$1" = -m ] && [ "$2" = venv ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; fi
if [ "$1" = -m ] && [ "$2" = pip ] && [ "$3" = --version ]; then exit 1; fi
exit 0
"""
# scripts/uv standing in for the pinned uv: it writes down its arguments and exits with $UV_STATUS;
# `venv DIR` makes DIR/bin/python when it succeeds.
UV = """#!/usr/bin/env bash
echo "uv $*" >>"$CALLS"
if [ "$UV_STATUS" = 0 ] && [ "$1" = venv ]; then
  mkdir -p .venv/bin && cp "$PYTHON" .venv/bin/python
fi
exit "$UV_STATUS"
"""


def executable(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def clone(tmp_path: Path) -> Path:
    """A checkout with bootstrap, pyproject.toml and the stand-in uv."""
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "bootstrap", checkout / "scripts" / "bootstrap")
    shutil.copy(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    executable(checkout / "scripts" / "uv", UV)
    return checkout


def bootstrap(
    checkout: Path, tmp_path: Path, uv_status: int
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    python = executable(tmp_path / "python", PYTHON)
    calls = tmp_path / "calls"
    done = subprocess.run(
        ["bash", str(checkout / "scripts" / "bootstrap")],
        cwd=checkout,
        env={**os.environ, "PYTHON": str(python), "CALLS": str(calls), "UV_STATUS": str(uv_status)},
        capture_output=True,
        text=True,
        check=False,
    )
    return done, calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []


def test_uv_makes_the_venv_and_installs_the_project_with_its_tools(tmp_path: Path) -> None:
    checkout = clone(tmp_path)
    done, calls = bootstrap(checkout, tmp_path, uv_status=0)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [FIRST_LINE]
    python = tmp_path / "python"
    assert calls == [
        f"uv venv --quiet --allow-existing --no-config --no-python-downloads --python {python} .venv",
        "uv pip install --quiet --no-config --compile-bytecode --python .venv/bin/python -e .[test,lint]",
        "python -c import sys; from emulator.schema import main; sys.exit(main())",
    ]
    assert [path.name for path in (checkout / ".venv").glob(".installed-*")] != []


def test_when_uv_cannot_pip_installs_the_same_and_says_so(tmp_path: Path) -> None:
    checkout = clone(tmp_path)
    done, calls = bootstrap(checkout, tmp_path, uv_status=2)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        FIRST_LINE,
        "scripts/bootstrap: uv could not install them; pip installs the same (slower)",
    ]
    python = tmp_path / "python"
    assert calls == [
        f"uv venv --quiet --allow-existing --no-config --no-python-downloads --python {python} .venv",
        "python -m venv .venv",
        "uv pip install --quiet --no-config --compile-bytecode --python .venv/bin/python -e .[test,lint]",
        "python -m pip --version",
        "python -m ensurepip",
        "python -m pip install --quiet --disable-pip-version-check -e .[test,lint]",
        "python -c import sys; from emulator.schema import main; sys.exit(main())",
    ]


def test_a_second_run_only_checks_what_is_there(tmp_path: Path) -> None:
    checkout = clone(tmp_path)
    bootstrap(checkout, tmp_path, uv_status=0)
    (tmp_path / "calls").unlink()
    done, calls = bootstrap(checkout, tmp_path, uv_status=2)  # uv is not asked again
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert calls == ["python -c import sys; from emulator.schema import main; sys.exit(main())"]


def test_a_fresh_clones_bootstrap_says_what_it_installs_before_the_installer_starts(tmp_path: Path) -> None:
    """On a fresh clone scripts/bootstrap spends 5-25 s in a quiet installer: its first line says what it
    is doing before the venv is made. Here uv fails and the interpreter is one that cannot make a venv,
    so the run stops right after that line; the line must already have been written."""
    checkout = clone(tmp_path)
    done = subprocess.run(
        ["bash", str(checkout / "scripts" / "bootstrap")],
        cwd=checkout,
        env={**os.environ, "PYTHON": "false", "CALLS": str(tmp_path / "calls"), "UV_STATUS": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert done.stderr.splitlines()[0] == FIRST_LINE
    assert not (checkout / ".venv").exists()
