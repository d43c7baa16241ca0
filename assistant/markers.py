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

A seal (`mac:HEX` after the payload, `seal`) is HMAC-SHA256 of the marker's name, the issue or pull
request number and the payload, keyed with the repository secret `ASSISTANT_MARKER_KEY` that only
the assistant's jobs hold: with a shared account (`github-actions`) it is the one thing another
workflow's echo of a stranger's text cannot produce. `counted` is the one rule of which markers of
the assistant's comment count (docs/security.md, "Shared accounts").
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from assistant.identity import Identity

_OPEN = "<!--"
_CLOSE = "-->"
# After `<!--`: the marker's name, then white space before the payload.
_HEAD = re.compile(r"\s*assistant:([a-z][a-z0-9-]*)\s+")
# The secret's variable, in the action's and the commands' environment (never in a file).
KEY_VARIABLE = "ASSISTANT_MARKER_KEY"
ANALYSIS = "analysis"
_SEAL_LEAD = "mac:"
_SEAL_DIGITS = 64
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class Marker:
    """One marker: its name, its payload (stripped), and where it is in the body ([start, end))."""

    name: str
    payload: str
    start: int
    end: int
    seal: str | None = field(default=None, compare=False)


def _split_seal(payload: str) -> tuple[str, str | None]:
    """The payload without its trailing ` mac:HEX`, and that seal (None when it has none)."""
    tail = payload[-(_SEAL_DIGITS + len(_SEAL_LEAD)) :]
    head = payload[: -len(tail)] if len(tail) < len(payload) else ""
    if not (tail.startswith(_SEAL_LEAD) and set(tail[len(_SEAL_LEAD) :]) <= _HEX and head[-1:].isspace()):
        return payload, None
    return head.rstrip(), tail[len(_SEAL_LEAD) :]


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
        payload, seal = _split_seal(body[head.end() : end].strip())
        yield Marker(head.group(1), payload, start, end + len(_CLOSE), seal)
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


def marker(name: str, payload: str, *, number: int | None = None, key: str | None = None) -> str:
    """The hidden marker `<!-- assistant:NAME PAYLOAD -->`; with a key and the issue's or pull
    request's number, sealed: `<!-- assistant:NAME PAYLOAD mac:HEX -->`."""
    if key and number is not None:
        return f"<!-- assistant:{name} {payload} {_SEAL_LEAD}{seal(key, name, number, payload)} -->"
    return f"<!-- assistant:{name} {payload} -->"


def seal(key: str, name: str, number: int, payload: str) -> str:
    """HMAC-SHA256, in hex, of `NAME`, the number and the payload, each on its own line."""
    message = f"{name}\n{number}\n{payload}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


def marker_key(environ: Mapping[str, str] | None = None) -> str | None:
    """The marker key from `ASSISTANT_MARKER_KEY` (None when unset or blank)."""
    value = (os.environ if environ is None else environ).get(KEY_VARIABLE, "").strip()
    return value or None


@dataclass(frozen=True)
class Counted:
    """The `NAME` markers of the assistant's comment that count, and why the others do not (one
    line in fixed words, or None when every marker found counts)."""

    markers: list[Marker]
    refused: str | None = None


def unsealed(name: str) -> str:
    """Why a marker of a shared account with the key set does not count."""
    return (
        f"{name} marker not sealed for this issue with {KEY_VARIABLE} (the assistant's account is "
        "shared: an echo of someone's text); ignored"
    )


NO_KEY = f"off: the assistant's account is shared and {KEY_VARIABLE} is not set"
ELSEWHERE = (
    "analysis marker inside the comment's text, not its first or last thing "
    "(a quote or an echo of someone's text); ignored"
)
NOT_LAST = (
    "analysis marker not alone on the comment's last line, as the assistant "
    f"writes it (a shared account without {KEY_VARIABLE}: an echo of someone's text); ignored"
)


def counted(body: str, name: str, number: int, assistant: Identity) -> Counted:
    """The one rule of which `NAME` markers count in a comment the assistant's account wrote.

    - A dedicated account: an analysis marker as the first or the last thing of the comment
      (`placed_markers`), any other kind anywhere: nobody else posts as that account.
    - A shared account with the key: only markers whose seal is that of this name, this number and
      this payload; another workflow's echo of a stranger's text has none (a stranger cannot make
      one without the key, and one copied from another issue names another number).
    - A shared account without the key: an analysis marker only as the assistant's writer puts it,
      alone on the comment's last line (an echo that ends with a stranger's issue title, one
      line, has the echo's own words before it on that line); proposals, memory and findings do not count at all.
    """
    if not assistant.is_shared:
        if name != ANALYSIS:
            return Counted([found for found in find_markers(body) if found.name == name])
        placed, elsewhere = placed_markers(body, name)
        return Counted(placed, ELSEWHERE if elsewhere else None)
    every = [found for found in find_markers(body) if found.name == name]
    if assistant.marker_key is not None:
        key = assistant.marker_key
        good = [
            found
            for found in every
            if found.seal is not None
            and hmac.compare_digest(found.seal, seal(key, name, number, found.payload))
        ]
        return Counted(good, unsealed(name) if len(good) < len(every) else None)
    if name != ANALYSIS:
        return Counted([], NO_KEY if every else None)
    last = [found for found in every if _written_last(body, found)]
    return Counted(last, NOT_LAST if len(last) < len(every) else None)


def _written_last(body: str, found: Marker) -> bool:
    """Whether a marker is where `corrections answer` and `corrections marker` put it: the body's
    last thing, alone on its last line (its payload on that one line)."""
    if body[found.end :].strip() or "\n" in body[found.start : found.end]:
        return False
    before = body[: found.start].rstrip(" \t")
    return not before or before.endswith("\n")


def replace_marker(body: str, name: str, new: str) -> str:
    """The body with its first `assistant:NAME` marker replaced by `new` (appended when it has none)."""
    found = next((m for m in find_markers(body) if m.name == name), None)
    if found is None:
        return f"{body.rstrip()}\n\n{new}\n" if body.strip() else f"{new}\n"
    return body[: found.start] + new + body[found.end :]
