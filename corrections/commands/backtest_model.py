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
import json
import os
import shlex
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from corrections.quality.backtest_run import ModelFailed
from corrections.quality.backtest_score import parse_answer
from corrections.render.model_answer import AnswerError
from corrections.rules.models import Permission

CACHE_FILE = "backtest-answers.jsonl"
PERMISSIONS_FILE = "backtest-permissions.json"
PERMISSIONS_KEPT = timedelta(days=1)  # how long a permission read is reused


def state_dir() -> Path:
    """Where the answers are cached: $XDG_STATE_HOME/correction-reader, else ~/.local/state/..."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "correction-reader"


@dataclass
class AnswerCache:
    """The answers already paid for, by key; each new one appended to the file at once."""

    path: Path
    answers: dict[str, str] = field(default_factory=dict)
    hits: int = 0

    @classmethod
    def load(cls, path: Path) -> AnswerCache:
        """The cache file's answers; a line cut by an interruption (or not ours), or an answer that
        does not parse (an older version kept those), is skipped: it is asked again."""
        found: dict[str, str] = {}
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            lines = []
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if (
                isinstance(entry, dict)
                and isinstance(entry.get("key"), str)
                and isinstance(entry.get("out"), str)
                and _parses(entry["out"])
            ):
                found[entry["key"]] = entry["out"]
        return cls(path, found)

    def add(self, key: str, out: str) -> None:
        self.answers[key] = out
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps({"key": key, "out": out}, ensure_ascii=False) + "\n")
            file.flush()


@dataclass
class PermissionCache:
    """The permissions a backtest read, by repository and login, with when; those read within
    PERMISSIONS_KEPT are given to the next read of the same repository (not asked again)."""

    path: Path
    repository: str
    entries: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path, repository: str) -> PermissionCache:
        """The file's entries; a file that does not parse (or is not ours) counts as empty."""
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            found = None
        entries = found.get("repositories") if isinstance(found, dict) else None
        return cls(path, repository, entries if isinstance(entries, dict) else {})

    def known(self, now: datetime) -> dict[str, str]:
        """The repository's permissions read within PERMISSIONS_KEPT of `now` (login -> level)."""
        found: dict[str, str] = {}
        entries = self.entries.get(self.repository)
        for login, entry in (entries if isinstance(entries, dict) else {}).items():
            try:
                level, read_at = Permission(entry["permission"]), datetime.fromisoformat(entry["read_at"])
                if now - PERMISSIONS_KEPT <= read_at <= now:
                    found[login] = level.value
            except (KeyError, TypeError, ValueError):
                continue
        return found

    def save(self, permissions: Mapping[str, str], reused: Mapping[str, str], now: datetime) -> None:
        """The read's permissions, each with when it was read (`reused` keep their moment)."""
        entries = {k: v for k, v in self.entries.get(self.repository, {}).items() if k in reused}
        moment = now.astimezone(UTC).isoformat()
        for login, level in permissions.items():
            if login not in reused:
                entries[login] = {"permission": level, "read_at": moment}
        self.entries[self.repository] = entries
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps({"v": 1, "repositories": self.entries}, indent=1), encoding="utf-8")
        partial.replace(self.path)


def _parses(out: str) -> bool:
    try:
        parse_answer(out, 0)  # the issue only decides whether a notice names itself
    except AnswerError:
        return False
    return True


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
