"""`corrections backtest`'s state folder (file I/O, so in the commands stage, beside the model's
runner in backtest_model.py): the answers already paid for (one JSON line each, written as
soon as it arrives, so an interrupted backtest run again asks only for the others), and the
permissions its read found, reused for a day."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from corrections.quality.backtest_score import parse_answer
from corrections.render.model_answer import AnswerError
from corrections.rules.models import Permission

CACHE_FILE = "backtest-answers.jsonl"
PERMISSIONS_FILE = "backtest-permissions.json"
PERMISSIONS_KEPT = timedelta(days=1)  # how long a permission read is reused


def parses(out: str) -> bool:
    """Whether a model's output holds an analysis (only those are cached)."""
    try:
        parse_answer(out, 0)  # the issue only decides whether a notice names itself
    except AnswerError:
        return False
    return True


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
                and parses(entry["out"])
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
