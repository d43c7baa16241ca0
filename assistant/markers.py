"""Hidden markers, `<!-- assistant:NAME PAYLOAD -->`: the one parser, and how they are written.

Analyses, proposals, findings and PR memory all go through `find_markers`. It is linear in the
body's size: each `<!--` is looked at once and the search for a marker's `-->` never starts again
from an earlier place (the lazy pattern `<!--(.*?)-->` backtracks over every unclosed start,
quadratic: 2.2 s for one 65,536-character comment). Without a `-->` after a marker's start, no
later start has one either, so the scan stops there.

Whose comment a marker may come from is decided before parsing, by the caller
(assistant.identity.is_assistant): anyone can type a marker.

A payload is JSON with `<` and `>` escaped (or base64), so no text inside it can end the HTML
comment early or open another one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_OPEN = "<!--"
_CLOSE = "-->"
# After `<!--`: the marker's name, then white space before the payload.
_HEAD = re.compile(r"\s*assistant:([a-z][a-z0-9-]*)\s+")


@dataclass(frozen=True)
class Marker:
    """One marker: its name, its payload (stripped), and where it is in the body ([start, end))."""

    name: str
    payload: str
    start: int
    end: int


def find_markers(body: str) -> Iterator[Marker]:
    """Every `<!-- assistant:NAME PAYLOAD -->` in the body, in order, in one linear pass."""
    position = 0
    while True:
        start = body.find(_OPEN, position)
        if start == -1:
            return
        head = _HEAD.match(body, start + len(_OPEN))
        if head is None:
            position = start + len(_OPEN)
            continue
        end = body.find(_CLOSE, head.end())
        if end == -1:
            return
        yield Marker(head.group(1), body[head.end() : end].strip(), start, end + len(_CLOSE))
        position = end + len(_CLOSE)


def placed_markers(body: str, name: str) -> tuple[list[Marker], list[Marker]]:
    """The `assistant:NAME` markers of a body that count and those that do not, each in order.

    A marker counts only as the first or the last thing in its body (white space aside; its
    payload may span lines). One anywhere else is inside someone's words: a comment that quotes
    or echoes a text with a marker in it (a welcome message repeating an issue's title) carries no
    marker of its own. Linear: where the body's text starts and ends is found once.
    """
    first = len(body) - len(body.lstrip())
    last = len(body.rstrip())
    counted: list[Marker] = []
    elsewhere: list[Marker] = []
    for found in find_markers(body):
        if found.name == name:
            (counted if found.start == first or found.end == last else elsewhere).append(found)
    return counted, elsewhere


def payloads(body: str, name: str) -> list[str]:
    """The payload of every `assistant:NAME` marker in a body, in order."""
    return [found.payload for found in find_markers(body) if found.name == name]


def json_payload(data: Any) -> str:
    """JSON on one line that cannot close an HTML comment."""
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    return text.replace("<", "\\u003c").replace(">", "\\u003e")


def marker(name: str, payload: str) -> str:
    """The hidden marker `<!-- assistant:NAME PAYLOAD -->`."""
    return f"<!-- assistant:{name} {payload} -->"


def replace_marker(body: str, name: str, new: str) -> str:
    """The body with its first `assistant:NAME` marker replaced by `new` (appended when it has none)."""
    found = next((m for m in find_markers(body) if m.name == name), None)
    if found is None:
        return f"{body.rstrip()}\n\n{new}\n" if body.strip() else f"{new}\n"
    return body[: found.start] + new + body[found.end :]
