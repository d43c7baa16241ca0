"""The console scripts as a person runs them: a subprocess, a clean environment, the demo world served."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
MODULES = {"corrections": "corrections", "learnings": "learnings.cli"}


@dataclass(frozen=True)
class Result:
    """Exit status and output of one command."""

    status: int
    out: str
    err: str


Command = Callable[..., Result]


def command_line(program: str) -> list[str]:
    """The console script installed beside this Python, else `python -m` of its module."""
    script = Path(sys.executable).parent / program
    return [str(script)] if script.is_file() else [sys.executable, "-m", MODULES[program]]


@pytest.fixture
def cli(tmp_path: Path) -> Command:
    """`cli("corrections", "read", ..., env={...}, cwd=...)`; no token, outside Actions, unless given."""

    def run(program: str, *argv: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Result:
        environ = {
            key: value
            for key, value in os.environ.items()
            if key not in {"GITHUB_TOKEN", "GH_TOKEN", "GITHUB_ACTIONS"} and not key.startswith("INPUT_")
        }
        environ["PYTHONPATH"] = str(ROOT)
        environ.update(env or {})
        result = subprocess.run(
            [*command_line(program), *argv],
            capture_output=True,
            text=True,
            env=environ,
            cwd=cwd or tmp_path,
            timeout=120,
            check=False,
        )
        return Result(result.returncode, result.stdout, result.stderr)

    return run


def git_checkout(folder: Path, origin: str | None = "git@github.com:octo/demo.git") -> Path:
    """A git checkout with an origin remote and a subfolder; returns the subfolder."""
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    if origin is not None:
        subprocess.run(["git", "-C", str(folder), "remote", "add", "origin", origin], check=True)
    inner = folder / "src" / "deep"
    inner.mkdir(parents=True)
    return inner
