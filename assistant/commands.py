"""Commands in comments: a line of a comment, as GitHub renders it, that starts with the command word.

A command counts only on a line of a paragraph of its own text: not inside a heading, a `>` quote
(lazy continuation lines included), a list item, code (a fence, an indented block, a code span), HTML
(a `<pre>`, an HTML comment on one line or many, any other HTML) or a `<details>` body
(assistant.markdown). The line must start with the command word itself: a leading no-break space
or any other character that is not plain text comes first, and the line is text, not a command.
A command is read only in a paragraph of at most MAX_PARAGRAPH characters, and in the first
MAX_PARAGRAPHS paragraphs of a comment that hold one. Who may give a command is decided
by the caller (permissions), not here.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.markdown import top_level_paragraphs

# Rendering a paragraph's Markdown costs what a stranger makes it cost (assistant.markdown), so a
# command is read only in a paragraph of at most 1,000 characters, and in the first 8 paragraphs
# of a comment that hold a command: at most 8,000 characters rendered a comment.
MAX_PARAGRAPH = 1_000
MAX_PARAGRAPHS = 8
# What can carry a line of a paragraph into something that does not show (a code span, HTML, a
# link's destination or title, an image's alt text): without them, a line shows as typed.
_SPANNING = ("`", "<", "](", "![")


@dataclass(frozen=True)
class Command:
    """One command line: the verb after the command word and the rest of the line."""

    verb: str
    argument: str


def _is_command(line: str, word: str) -> bool:
    """Whether a line as typed starts with the command word itself, then white space or its end."""
    head = line.split(None, 1)
    return bool(head) and line.startswith(head[0]) and head[0].casefold() == word


def _read(line: str) -> Command | None:
    parts = line.split(None, 1)
    if len(parts) < 2:
        return None
    verb, _, argument = parts[1].partition(" ")
    return Command(verb=verb.casefold(), argument=argument.strip())


def command_lines(body: str, command_word: str) -> list[Command]:
    """Every command in a comment body, in order (see the module for where one counts)."""
    word = command_word.casefold()
    if not any(_is_command(line.lstrip(" \t"), word) for line in body.splitlines()):
        return []  # no line starts with the word: nothing to render
    found: list[Command] = []
    held = 0
    for paragraph in top_level_paragraphs(body):
        if not any(_is_command(line, word) for line in paragraph.lines):
            continue
        held += 1
        if held > MAX_PARAGRAPHS or sum(len(line) + 1 for line in paragraph.lines) > MAX_PARAGRAPH:
            continue
        if any(mark in line for line in paragraph.lines for mark in _SPANNING):
            lines = [(line.typed, line.starts_with_text) for line in paragraph.shown_lines()]
        else:  # no construct can carry a line into hiding: each line is shown as typed
            lines = [(line, index > 0 or not paragraph.spaced) for index, line in enumerate(paragraph.lines)]
        for typed, shown_first in lines:
            command = _read(typed) if shown_first and _is_command(typed, word) else None
            if command is not None:
                found.append(command)
    return found


def says_not_duplicate(body: str, command_word: str) -> bool:
    """Whether a comment holds `<command> not-duplicate` on a line of its own."""
    return any(c.verb == "not-duplicate" and not c.argument for c in command_lines(body, command_word))
