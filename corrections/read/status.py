"""How a read ended: complete, partial, off or failed, each with the note the outputs show.

Plain values, no models: the commands tell the cases apart before the reader is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass

from corrections.read import notes


@dataclass(frozen=True)
class Complete:
    """Everything the window needs was read; `note` when the scan's bound ended the search for
    analyses before the window was full (notes.scan_bound)."""

    note: str | None = None


@dataclass(frozen=True)
class Partial:
    """Parts could not be read (GitHub failed, or the reader's caps were reached); the note names them."""

    missing: frozenset[notes.Part]
    note: str


@dataclass(frozen=True)
class Off:
    """Reading is turned off ([context] max_analyzed = 0): nothing (more) was read from GitHub."""

    note: str


@dataclass(frozen=True)
class Failed:
    """Nothing usable was read: GitHub's failure (its category), or the reader's own (notes.INTERNAL)."""

    failure: str
    note: str

    @property
    def internal(self) -> bool:
        """The reader itself failed, not GitHub."""
        return self.failure == notes.INTERNAL

    def warning(self, *, actions: bool) -> str:
        """The note and what to check, as one warning."""
        return f"{self.note} {notes.what_to_check(self.failure, actions=actions)}".strip()


Status = Complete | Partial | Off | Failed


def github_failed(status: Status) -> bool:
    """Whether GitHub failed the read, wholly or in part (an internal error is not GitHub's)."""
    return isinstance(status, Partial) or (isinstance(status, Failed) and not status.internal)
