"""Commands in comments: a line of a comment, as GitHub renders it, that starts with the command word.

A command counts only on a line of a paragraph of its own text: not inside a heading, a `>` quote
(lazy continuation lines included), a list item, code (a fence, an indented block, a code span), HTML
(a `<pre>`, an HTML comment on one line or many, any other HTML) or a `<details>` body
(assistant.markdown). The line must start with the command word itself: a leading no-break space
or any other character that is not plain text comes first, and the line is text, not a command.
Who may give a command is decided by the caller (permissions), not here.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.markdown import visible_blocks


@dataclass(frozen=True)
class Command:
    """One command line: the verb after the command word and the rest of the line."""

    verb: str
    argument: str


def command_lines(body: str, command_word: str) -> list[Command]:
    """Every command in a comment body, in order."""
    word = command_word.casefold()
    if word not in body.casefold():
        return []  # no Markdown to render
    found: list[Command] = []
    for block in visible_blocks(body):
        if not block.top_level or block.kind != "paragraph":
            continue
        for line in block.lines:
            parts = line.typed.split(None, 1)
            if not line.starts_with_text or not parts or parts[0].casefold() != word or len(parts) < 2:
                continue
            if not line.typed.startswith(parts[0]):
                continue  # white space before the word: not what a paragraph's line starts with
            verb, _, argument = parts[1].partition(" ")
            found.append(Command(verb=verb.casefold(), argument=argument.strip()))
    return found


def says_not_duplicate(body: str, command_word: str) -> bool:
    """Whether a comment holds `<command> not-duplicate` on a line of its own."""
    return any(c.verb == "not-duplicate" and not c.argument for c in command_lines(body, command_word))
