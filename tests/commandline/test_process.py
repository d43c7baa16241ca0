"""A command's own process (commandline/process.py): the cyclic collector paused while its modules
load, and leaving it: what was printed arrives, the status is the command's, and the
interpreter's teardown (exit handlers, freeing every object) is skipped."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from commandline import process

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-c", code]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False, timeout=60)


def test_what_was_printed_arrives_and_the_status_is_kept_without_a_teardown() -> None:
    done = _python(
        "import atexit, sys\n"
        "atexit.register(lambda: print('teardown ran'))\n"
        "from commandline.process import exit_now\n"
        "print('x' * 100_000)\n"  # more than a pipe's buffer: flushed, not lost
        "print('to stderr', file=sys.stderr)\n"
        "exit_now(3)\n"
    )
    assert done.returncode == 3
    assert done.stdout == "x" * 100_000 + "\n" and done.stderr == "to stderr\n"


def test_a_closed_standard_output_fails_the_exit_as_python_does() -> None:
    done = _python(
        "import sys\nfrom commandline.process import exit_now\nprint('lost')\nsys.stdout.close()\nexit_now(0)\n"
    )
    assert done.returncode == 120


def _module(package: str, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", package, *args]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False, timeout=60)


def test_the_console_entry_points_leave_through_it() -> None:
    for package in ("corrections", "learnings"):
        done = _module(package, "--version")
        assert done.returncode == 0 and done.stdout.startswith(package)
        usage = _module(package, "no-such-command")
        assert usage.returncode == 2 and "no-such-command" in usage.stderr
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'corrections = "corrections.commands.cli:entry"' in text
    assert 'learnings = "learnings.cli:entry"' in text


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector as the test found it, afterwards (running, nothing of the test frozen)."""
    yield
    gc.unfreeze()
    gc.enable()


def test_in_process_callers_keep_the_collector_as_it_is(collector: None) -> None:
    """The tests and the bench call main(): nothing of theirs is frozen, the collector runs."""
    assert process.pause_collector() is False
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    process.resume_collector(False)
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_a_console_script_loads_without_the_collector_then_freezes_what_it_loaded(
    collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(process._ThisProcess, "console_script", False)
    process.start()
    assert process._ThisProcess.console_script
    paused = process.pause_collector()
    assert paused and not gc.isenabled()
    loaded = [[index] for index in range(1000)]  # what the modules make, standing in
    process.resume_collector(paused)
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(loaded)  # frozen: never looked at again
    gc.unfreeze()
    process.resume_collector(paused)  # the read's `finally`, after it was resumed: nothing more
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_collector_stopped_by_someone_else_is_left_stopped(
    collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(process._ThisProcess, "console_script", True)
    gc.disable()
    assert process.pause_collector() is False
    process.resume_collector(False)
    assert not gc.isenabled()
