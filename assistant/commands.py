"""Commands in comments: a line that starts with the command word, outside quotes and code.

`/assistant not-duplicate` counts only on a line of its own; a command inside a `>` quote or a
fenced or indented code block is text, not a command. Who may give a command is decided by
the caller (permissions), not here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One command line: the verb after the command word and the rest of the line."""

    verb: str
    argument: str


def command_lines(body: str, command_word: str) -> list[Command]:
    """Every command in a comment body, in order."""
    found: list[Command] = []
    fence: str | None = None
    word = command_word.casefold()
    for raw in body.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = raw.strip()
        if fence is not None:
            if stripped.startswith(fence) and set(stripped) <= set(fence[0]):
                fence = None
            continue
        if stripped.startswith(("```", "~~~")):
            marker = stripped[0]
            fence = marker * (len(stripped) - len(stripped.lstrip(marker)))
            continue
        if raw.startswith(("    ", "\t")) or not stripped:
            continue
        parts = stripped.split(None, 1)
        if parts[0].casefold() != word or len(parts) < 2:
            continue
        verb, _, argument = parts[1].partition(" ")
        found.append(Command(verb=verb.casefold(), argument=argument.strip()))
    return found


def says_not_duplicate(body: str, command_word: str) -> bool:
    """Whether a comment holds `<command> not-duplicate` on a line of its own."""
    return any(c.verb == "not-duplicate" and not c.argument for c in command_lines(body, command_word))
