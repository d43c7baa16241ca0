"""Running the real `corrections read` against the emulator, and checking what a run left behind.

Set RELIABILITY_TIMES=FILE to collect the measured time of every fault case into FILE (JSON),
the source of the table in docs/reliability.md.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from corrections.commands.cli import main
from corrections.render.output import MANIFEST

ROOT = Path(__file__).resolve().parent.parent.parent
WORLDS = ROOT / "tests" / "worlds"
# A token nobody could mistake for anything else: it must never show up in any output.
TOKEN = "ghp_R3liab1lityCanaryT0ken9f8e7d6c5b4a"
OLD = "PREVIOUS RUN, MUST BE REPLACED"


@dataclass(frozen=True)
class Run:
    """One run of the CLI: exit status, what it printed, where it wrote, how long it took."""

    status: int
    out: Path
    stdout: str
    stderr: str
    seconds: float

    def json(self) -> Any:
        return json.loads((self.out / "corrections.json").read_text(encoding="utf-8"))

    def markdown(self) -> str:
        return (self.out / "corrections.md").read_text(encoding="utf-8")

    @property
    def warnings(self) -> list[str]:
        return [line for line in self.stdout.splitlines() if line.startswith("::warning")]

    @property
    def github_warnings(self) -> list[str]:
        """The warnings that say GitHub failed (others name a broken marker, a skipped line...)."""
        return [line for line in self.warnings if "could not be read from GitHub" in line]

    @property
    def retries(self) -> int:
        for line in self.stderr.splitlines():
            found = re.search(r"requests \((\d+) retr(?:y|ies)\)", line)
            if found:
                return int(found.group(1))
        raise AssertionError("no summary line on stderr")


Reader = Callable[..., Run]


@pytest.fixture
def read_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Reader:
    """`corrections read` through the real CLI: `read_cli(api_url, out, *extra, repo=..., budget=...)`."""

    def run(
        api_url: str,
        out: Path,
        *extra: str,
        repo: str = "octo/demo",
        budget: float | None = 5.0,
        token: str = TOKEN,
    ) -> Run:
        monkeypatch.setenv("GITHUB_TOKEN", token)
        # As the action runs it: warnings are workflow commands (outside Actions they are plain lines).
        monkeypatch.setenv("GITHUB_ACTIONS", "true")
        argv = ["read", "--repo", repo, "--api-url", api_url, "--out", str(out), *extra]
        if budget is not None:
            argv += ["--time-budget", str(budget)]
        capsys.readouterr()
        started = time.monotonic()
        status = main(argv)
        seconds = time.monotonic() - started
        captured = capsys.readouterr()
        return Run(status, out, captured.out, captured.err, seconds)

    return run


def _seed(out: Path) -> None:
    """The files of a previous run, and its manifest naming them (what the reader wrote)."""
    (out / "issues").mkdir(parents=True, exist_ok=True)
    written = ["corrections.md", "corrections.json", "learnings.md", "issues/999999.md"]
    for name in written:
        (out / name).write_text(OLD, encoding="utf-8")
    (out / MANIFEST).write_text(json.dumps({"v": 1, "files": written}), encoding="utf-8")


def _check_replaced(out: Path) -> None:
    leftovers = [p for p in out.rglob("*") if p.name.startswith(".") and p.name != MANIFEST]
    assert leftovers == [], f"temporary files left behind: {leftovers}"
    assert not (out / "issues" / "999999.md").exists()
    for path in out.rglob("*"):
        if path.is_file():
            assert OLD not in path.read_text(encoding="utf-8"), f"{path} is from the previous run"
    json.loads((out / "corrections.json").read_text(encoding="utf-8"))


@pytest.fixture
def previous_run() -> Callable[[Path], None]:
    """Fill a folder with a previous run's files (every one must be replaced or removed)."""
    return _seed


@pytest.fixture
def replaced_whole() -> Callable[[Path], None]:
    """Assert nothing of the previous run and no temporary file is left in the folder."""
    return _check_replaced


_TIMES: dict[str, dict[str, Any]] = {}


@pytest.fixture(scope="session")
def timings() -> Iterator[dict[str, dict[str, Any]]]:
    """Measured outcome per fault case; written to $RELIABILITY_TIMES at the end of the session."""
    yield _TIMES
    target = os.environ.get("RELIABILITY_TIMES")
    if target:
        Path(target).write_text(json.dumps(_TIMES, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
