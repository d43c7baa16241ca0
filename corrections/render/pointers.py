"""A correction line points only at what the prompt holds (pure).

corrections.md sits beside every `issues/<n>.md` it names, so a line may say where an
objection's or a 👎's reason is written ("the reason: see issues/N.md"). A prompt holds only the
excerpts its budget lets in: a pointer at one left out is taken away, and the line keeps its own
words (who objected, how many 👎). Only the program's words after a line's title are looked at:
a title is a JSON string, read as one, never searched.
"""

from __future__ import annotations

import json
from collections.abc import Collection

POINTER = " (the reason: see issues/{number}.md)"
_START, _END = " (the reason: see issues/", ".md)"
_DECODER = json.JSONDecoder()
# Where a collapsed line's other issues (their titles) start (corrections/render/files.py).
OTHERS = " | the same correction on "


def _is_fence(line: str) -> bool:
    return len(line) >= 3 and line == "`" * len(line)


def fenced_span(lines: list[str]) -> tuple[int, int] | None:
    """The places of a rendered file's first fence line and of the line that closes it (the same
    run of backticks); None when the file has no such fence."""
    opening = next((i for i, line in enumerate(lines) if _is_fence(line)), None)
    if opening is None:
        return None
    try:
        return opening, lines.index(lines[opening], opening + 1)
    except ValueError:
        return None


def _pointing_only_at(line: str, shown: Collection[int]) -> str:
    """One line with its pointers at issues not in `shown` taken away."""
    quote = line.find(' "')
    if not line.startswith("#") or quote == -1:
        return line
    try:
        _title, end = _DECODER.raw_decode(line, quote + 1)
    except json.JSONDecodeError:
        return line
    rest = line[end:]
    split = rest.find(OTHERS)
    words, others = (rest, "") if split == -1 else (rest[:split], rest[split:])
    out, position = [], 0
    while (start := words.find(_START, position)) != -1:
        close = words.find(_END, start)
        if close == -1:
            break
        number = words[start + len(_START) : close]
        keep = not number.isdigit() or int(number) in shown
        out.append(words[position : close + len(_END)] if keep else words[position:start])
        position = close + len(_END)
    out.append(words[position:])
    return line[:end] + "".join(out) + others


def pointing_only_at(corrections_md: str, shown: Collection[int]) -> str:
    """corrections.md with every line's pointer at an excerpt not in `shown` taken away."""
    lines = corrections_md.split("\n")
    span = fenced_span(lines)
    if span is None:
        return corrections_md
    opening, closing = span
    inner = [_pointing_only_at(line, shown) for line in lines[opening + 1 : closing]]
    return "\n".join([*lines[: opening + 1], *inner, *lines[closing:]])
