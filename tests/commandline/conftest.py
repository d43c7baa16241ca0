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


@pytest.fixture
def in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Command:
    """`cli`'s twin through the command's `main(argv)` in this process, with the same environment
    (no token, outside Actions, unless given) and folder: for tests of what a command does with
    files, GitHub and its arguments. What only a process shows (the console script itself, its
    start-up imports, leaving at once, the environment a process is given) stays with `cli`; each
    console script keeps such tests. A usage error's SystemExit gives its status, as the process's."""
    from corrections.commands.cli import main as corrections_main
    from learnings.cli import main as learnings_main

    mains = {"corrections": corrections_main, "learnings": learnings_main}

    def run(program: str, *argv: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Result:
        with monkeypatch.context() as patch:
            for key in [*os.environ]:
                if key in {"GITHUB_TOKEN", "GH_TOKEN", "GITHUB_ACTIONS"} or key.startswith("INPUT_"):
                    patch.delenv(key)
            for key, value in (env or {}).items():
                patch.setenv(key, value)
            patch.chdir(cwd or tmp_path)
            capsys.readouterr()
            try:
                status = mains[program](list(argv))
            except SystemExit as leaving:
                status = leaving.code if isinstance(leaving.code, int) else int(leaving.code is not None)
            captured = capsys.readouterr()
        return Result(status, captured.out, captured.err)

    return run


def git_checkout(folder: Path, origin: str | None = "git@github.com:octo/demo.git") -> Path:
    """A git checkout with an origin remote and a subfolder; returns the subfolder."""
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    if origin is not None:
        subprocess.run(["git", "-C", str(folder), "remote", "add", "origin", origin], check=True)
    inner = folder / "src" / "deep"
    inner.mkdir(parents=True)
    return inner
