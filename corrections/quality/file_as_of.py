"""A base-branch file (labels.md, the learnings file) as it was at a past moment, from its history (pure).

The backtest asks GitHub once a file for the commits that changed it (newest first, at most 100:
queries/file_history.py) and gives each replayed analysis the version in force at its moment: the
newest committed at or before it. Before the file's first commit it did not exist (no vocabulary,
no learning); a moment older than the versions read when the history goes back further than one
page, or a history GitHub did not give, falls back on the file as it is now, and the backtest says
how many analyses did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class FileVersionThen:
    """The file as one commit left it; `text` None when that commit deleted it (or it was not read whole)."""

    at: datetime
    text: str | None


@dataclass(frozen=True)
class FileAsOf:
    """The versions read, newest first; `complete`: they reach back to the file's first commit."""

    versions: Sequence[FileVersionThen] = ()
    complete: bool = False

    def at(self, moment: datetime) -> str | None:
        """The file's text in force at `moment`; "" when it did not exist then (or a commit before
        it deleted it); None when this history cannot say (the caller keeps today's file)."""
        for version in self.versions:  # newest first
            if version.at <= moment:
                return version.text if version.text is not None else ""
        return "" if self.complete else None
