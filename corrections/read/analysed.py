"""The issue being analysed, as plain values: known before any model is loaded (the command
line's `--issue`, the action's event), and it decides part of the read's first request."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AnalysedIssue:
    """The issue being analysed: its number, and its title and body once known.

    Its text only ranks the corrections (nearest first); it is never rendered.
    """

    number: int
    title: str | None = None
    body: str | None = None

    @property
    def text_to_ask(self) -> int | None:
        """The number whose title and body the first request asks for: only when not known yet."""
        return self.number if self.title is None else None
