"""Untrusted text (titles, bodies, comments, learning text) made safe to place in a prompt.

Everything an issue's author wrote reaches a rendered file only through these functions:
invisible characters removed, written as a JSON string (quotes, backslashes and line breaks
escaped), inside a backtick fence longer than any backtick run it could contain.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable

# Unicode categories that never reach a rendered file (docs/rules.md, "What the model is given"):
# controls, format characters (zero-width, bidi, tags), private use, surrogates, unassigned,
# line and paragraph separators.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
# Default_Ignorable_Code_Point, from Unicode 15.1.0 DerivedCoreProperties.txt
# (https://www.unicode.org/Public/15.1.0/ucd/DerivedCoreProperties.txt, 4,174 code points): the
# characters a renderer shows as nothing even outside those categories (variation selectors, Hangul
# fillers, the combining grapheme joiner, Khmer inherent vowels, Mongolian selectors). Python's
# unicodedata has no such property; this is its one copy. U+2800 (BRAILLE PATTERN BLANK) is not in
# it but looks like a space, so it is removed too.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
BRAILLE_BLANK = 0x2800
_IGNORABLE = frozenset(
    chr(point) for first, last in DEFAULT_IGNORABLE for point in range(first, last + 1)
) | {chr(BRAILLE_BLANK)}
_SPACES = re.compile(r" {2,}")
_JSON = json.JSONEncoder(ensure_ascii=False)  # one encoder: json.dumps builds one per call
_BACKTICKS = re.compile(r"`+")
_ASCII_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def is_invisible(char: str) -> bool:
    """Whether a character is removed from untrusted text: an invisible category, a
    Default_Ignorable_Code_Point, or the braille blank."""
    return char in _IGNORABLE or unicodedata.category(char) in INVISIBLE_CATEGORIES


def _fate(char: str, *, spaces: bool) -> str | None:
    """What cleaning makes of one character: itself, a space (white space, with `spaces`; decided
    before invisibility, so a line break reads as a space), or None (removed)."""
    if spaces and char.isspace():
        return " "
    if not spaces and char in "\n\t":
        return char
    return None if is_invisible(char) else char


def _ascii_table(*, spaces: bool) -> dict[int, str | None]:
    fates = {point: _fate(chr(point), spaces=spaces) for point in range(128)}
    return {point: fate for point, fate in fates.items() if fate != chr(point)}


_ASCII_LINE, _ASCII_BLOCK = _ascii_table(spaces=True), _ascii_table(spaces=False)


def _table(text: str, *, spaces: bool) -> dict[int, str | None]:
    """A `str.translate` table for `text`: ASCII decided once for all texts, and each other
    distinct character of the text once, instead of every character (the render step's hot path)."""
    table = _ASCII_LINE if spaces else _ASCII_BLOCK
    if text.isascii():
        return table
    table = dict(table)
    for char in set(text):
        if not char.isascii():
            fate = _fate(char, spaces=spaces)
            if fate != char:
                table[ord(char)] = fate
    return table


def clean_line(text: str) -> str:
    """One line of text: white space folded to single spaces, every invisible character removed.

    White space (including line breaks and tabs) becomes a space rather than vanishing, so
    "crash\\non start" reads "crash on start", not "crashon start".
    """
    visible = text.translate(_table(text, spaces=True))
    return _SPACES.sub(" ", visible).strip()


def clean_block(text: str) -> str:
    """Multi-line text with every invisible character removed except line feeds and tabs."""
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    return normalized.translate(_table(normalized, spaces=False))


def truncate(text: str, limit: int) -> str:
    """At most `limit` characters; a cut is marked so the reader knows text is missing."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"


def json_text(text: str) -> str:
    """A JSON string literal: quotes, backslashes and control characters escaped, one line."""
    return _JSON.encode(text)


def escape_markdown(text: str) -> str:
    """Text that Markdown shows as it is: every ASCII punctuation character backslash-escaped."""
    return _ASCII_PUNCTUATION.sub(r"\\\1", text)


def inline_code(text: str) -> str:
    """Text as a Markdown code span that shows it as it is: delimited by more backticks than any
    run inside (CommonMark), padded with a space when it starts or ends with a backtick."""
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def fence_for(lines: Iterable[str], minimum: int = 3) -> str:
    """A backtick fence longer than any run of backticks in the lines it will enclose."""
    longest = 0
    for line in lines:
        for run in _BACKTICKS.findall(line):
            longest = max(longest, len(run))
    return "`" * max(minimum, longest + 1)


_MARKUP = re.compile(r"([\\`<>\[\]*_~])")


def plain_markdown_line(text: str) -> str:
    """One line of someone's text to stand in a Markdown list item as words only: cleaned as by
    clean_line, and every character that opens a code span, HTML (a comment included), a link or
    emphasis backslash-escaped, so it can neither hide the lines after it nor start one of its own."""
    return _MARKUP.sub(r"\\\1", clean_line(text))
