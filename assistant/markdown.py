"""Markdown as GitHub renders it: the one parser, and the blocks of text a reader of a comment sees.

CommonMark through markdown-it-py, never a substring test: what is written is not what is shown.
What a reader sees of a comment is the text of its paragraphs and headings (in a quote or a list
item or not). Nothing of these shows, so none of it is in that text:

- HTML: an HTML block (`<pre>`, `<style>`, a multi-line `<!-- -->`, any other) and inline HTML
  (a tag such as `<a title="…">` with its attributes, an inline comment);
- everything inside `<details>` … `</details>`, opened by an HTML block or inline HTML;
- link reference definitions (`[ref]: https://x "title"`), link destinations and titles, images
  (their alt text and titles);
- Markdown syntax itself: emphasis marks, the backticks of a code span (its content shows).

Code blocks and fences show, but as code: they are not blocks of text here. Only what reads
comments imports this module (a read loads it beside its first request, corrections/read/entry.py).

Rendering inline Markdown is most of the cost, and a stranger chooses the input: 65,536
characters of `![` take markdown-it-py seconds. `top_level_paragraphs` therefore splits a
comment into blocks only (under 0.2 s for any 65,536 characters) and leaves it to the caller
which paragraphs to render (`shown_lines`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt

if TYPE_CHECKING:
    from markdown_it.token import Token

_DETAILS = re.compile(r"<(/?)details(?=[\s/>]|$)", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_CONTAINERS = {"blockquote_open": 1, "blockquote_close": -1, "list_item_open": 1, "list_item_close": -1}
# Inline tokens that show nothing of their own: emphasis marks and links (their text shows).
_MARKS = frozenset({"em_open", "em_close", "strong_open", "strong_close", "link_open", "link_close"})


@cache
def parser() -> MarkdownIt:
    """CommonMark as the spec says it (HTML blocks and comments recognised, no extensions)."""
    return MarkdownIt("commonmark")


@cache
def block_parser() -> MarkdownIt:
    """The same, blocks only: paragraphs keep their text unrendered."""
    return MarkdownIt("commonmark").disable("inline")


@dataclass(frozen=True)
class Line:
    """One line of a paragraph as shown: its visible text, the same with the Markdown marks that shaped
    it (emphasis, code backticks: what was typed), and whether it starts with plain text."""

    visible: str
    typed: str
    starts_with_text: bool


def fold_spaces(text: str) -> str:
    """Runs of white space (line breaks included) as one space, without leading or trailing space."""
    return _SPACES.sub(" ", text).strip()


def _details(html: str, depth: int) -> int:
    """The `<details>` depth after a piece of HTML."""
    for found in _DETAILS.finditer(html):
        depth = max(0, depth - 1) if found.group(1) else depth + 1
    return depth


def _lines(children: Sequence[Token], depth: int) -> tuple[list[Line], int]:
    """The lines of an inline token as shown, and the `<details>` depth after it."""
    lines: list[Line] = []
    visible: list[str] = []
    typed: list[str] = []
    first: str | None = None  # what the line starts with: "text", or anything else

    def end_line() -> None:
        lines.append(Line("".join(visible), "".join(typed), first == "text"))
        visible.clear()
        typed.clear()

    for child in children:
        kind = child.type
        if kind in {"softbreak", "hardbreak"}:
            end_line()
            first = None
            continue
        if kind == "html_inline":
            depth = _details(child.content, depth)
        if kind in {"html_inline", "image"} or depth:
            first = first or "hidden"
            continue
        if kind in _MARKS:
            typed.append(child.markup if kind.startswith(("em", "strong")) else "")
            first = first or "mark"
            continue
        if kind == "code_inline":
            visible.append(child.content)
            typed.append(f"{child.markup}{child.content}{child.markup}")
        else:  # text (escapes and entities already decoded)
            visible.append(child.content)
            typed.append(child.content)
        first = first or ("text" if kind == "text" else kind)
    end_line()
    return lines, depth


def _starts_with_space(source: list[str], opened: Token) -> bool:
    """Whether a top-level block's first line starts with white space that shows (a no-break
    space): markdown-it-py strips it from a paragraph's start, GitHub's renderer does not."""
    if opened.map is None or opened.map[0] >= len(source):
        return False
    first = source[opened.map[0]].lstrip(" \t")
    return bool(first) and first[0].isspace()


@dataclass(frozen=True)
class Paragraph:
    """A paragraph in no quote, list item or `<details>`, its Markdown not yet rendered.

    `lines` are its lines as typed, without their indentation; `spaced` says whether the first
    starts with white space that shows (a no-break space, see `_starts_with_space`).
    """

    lines: tuple[str, ...]
    spaced: bool
    references: dict[str, object]

    def shown_lines(self) -> list[Line]:
        """Its lines rendered (the link references of the whole comment in force)."""
        env = {"references": self.references}
        (inline,) = parser().parseInline("\n".join(self.lines), env)
        lines, _depth = _lines(inline.children or [], 0)
        if self.spaced:
            lines[0] = Line(lines[0].visible, lines[0].typed, starts_with_text=False)
        return lines


def top_level_paragraphs(body: str) -> Iterator[Paragraph]:
    """The paragraphs of a comment that stand in no quote, list item or `<details>`, in order."""
    depth = containers = 0
    env: dict[str, object] = {}
    tokens = block_parser().parse(body, env)
    references = env.get("references")
    source = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for before, token in zip([None, *tokens], tokens, strict=False):
        kind = token.type
        containers += _CONTAINERS.get(kind, 0)
        if kind == "html_block":
            depth = _details(token.content, depth)
        elif kind == "inline" and before is not None and before.type == "paragraph_open":
            hidden = depth > 0 or containers > 0
            depth = _details(token.content, depth)  # inline `<details>` hides what follows too
            if not hidden:
                lines = [line.lstrip(" \t") for line in token.content.split("\n")]
                spaced = _starts_with_space(source, before)
                yield Paragraph(tuple(lines), spaced, references if isinstance(references, dict) else {})


def visible_texts(body: str) -> Iterator[str]:
    """The visible text of each paragraph and heading of a comment that a reader sees (in a quote
    or a list item or not), white space folded, in order (see the module)."""
    depth = 0  # inside how many `<details>`
    for token in parser().parse(body):
        if token.type == "html_block":
            depth = _details(token.content, depth)
        elif token.type == "inline" and token.children is not None:
            hidden = depth > 0
            lines, depth = _lines(token.children, depth)
            text = fold_spaces(" ".join(line.visible for line in lines))
            if text and not hidden:
                yield text
