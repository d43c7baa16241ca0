"""The world kit: the world format of docs/world-format.md spelled once, for every world built in code.

The hand-designed test worlds (tests/worlds/source/) and the bench's generated ones (bench/worlds.py,
bench/topic_world.py, bench/loop_world.py) build their items, markers, times and top level here.
Timelines get checked times (a step back in time is refused) and comment ids shaped like GitHub's.
The kit knows nothing of the rules: the expected results beside each hand-designed world are
counted by hand (see tests/worlds/demo.expected.md).
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ASSISTANT = "triage-assistant"
MARKER = "<!-- assistant:analysis {} -->"
TIME = "%Y-%m-%dT%H:%M:%SZ"  # GitHub's timestamp form: UTC, whole seconds, Z

Item = dict[str, Any]

_RELATIVE = re.compile(r"^\+(\d+)([smhd])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}
_INVISIBLE = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


def iso(moment: datetime) -> str:
    """GitHub's timestamp form: UTC, whole seconds, Z."""
    return moment.astimezone(UTC).strftime(TIME)


def parse_time(text: str) -> datetime:
    """An ISO 8601 UTC time written with Z."""
    return datetime.strptime(text, TIME).replace(tzinfo=UTC)


class Clock:
    """The time of the last item of one timeline; every new item must come strictly later."""

    def __init__(self, created: str) -> None:
        self.now = parse_time(created)
        self.comment_ids: list[int] = []

    def advance(self, when: str) -> str:
        """`+5m`-style steps from the previous item, or an absolute time; raises on a step back."""
        match = _RELATIVE.match(when)
        if match:
            step = timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})
            moment = self.now + step
        else:
            moment = parse_time(when)
        if moment <= self.now:
            raise ValueError(f"time {iso(moment)} is not after {iso(self.now)}")
        self.now = moment
        return iso(moment)


class CommentIds:
    """Comment ids unique across one world, shaped like GitHub's."""

    def __init__(self, start: int) -> None:
        self.next = start

    def take(self) -> int:
        """The next id."""
        value = self.next
        self.next += 7
        return value


def marker(kind: str, labels: list[str], duplicate_of: int | None) -> str:
    """The hidden analysis marker exactly as the assistant writes it."""
    payload = {"v": 1, "kind": kind, "labels": labels, "duplicate_of": duplicate_of}
    return MARKER.format(json.dumps(payload))


def comment(author: str | None, body: str, reactions: list[tuple[str | None, str]] | None = None) -> Item:
    """A comment; its id and time are filled in by `issue`. Reactions are (login, CONTENT)."""
    item: Item = {"type": "comment", "author": author, "body": body}
    if reactions:
        item["_reactions"] = reactions
    return item


def analysis(  # noqa: PLR0917  (text, labels, duplicate_of read as one phrase)
    text: str,
    labels: list[str],
    duplicate_of: int | None = None,
    kind: str = "first",
    reactions: list[tuple[str | None, str]] | None = None,
    author: str = ASSISTANT,
) -> Item:
    """An analysis comment by the assistant: the marker line, then the text a reader sees."""
    return comment(author, marker(kind, labels, duplicate_of) + "\n" + text, reactions)


def labeled(actor: str | None, label: str) -> Item:
    """A label added."""
    return {"type": "labeled", "actor": actor, "label": label}


def unlabeled(actor: str | None, label: str) -> Item:
    """A label removed."""
    return {"type": "unlabeled", "actor": actor, "label": label}


def closed(actor: str | None, reason: str = "COMPLETED") -> Item:
    """The issue closed with a state reason."""
    return {"type": "closed", "actor": actor, "state_reason": reason}


def reopened(actor: str | None) -> Item:
    """The issue reopened."""
    return {"type": "reopened", "actor": actor}


def marked(actor: str | None, canonical: int) -> Item:
    """Marked as a duplicate of `canonical`."""
    return {"type": "marked_as_duplicate", "actor": actor, "canonical": canonical}


def unmarked(actor: str | None, canonical: int) -> Item:
    """Unmarked as a duplicate of `canonical`."""
    return {"type": "unmarked_as_duplicate", "actor": actor, "canonical": canonical}


def place(item: Item, at: str, comment_id: int | None = None) -> Item:
    """An item placed in a timeline at `at`; a comment also takes its id (first, after its type)."""
    placed = {key: value for key, value in item.items() if key != "_reactions"}
    if comment_id is not None:
        placed = {"type": placed.pop("type"), "id": comment_id, **placed}
    placed["at"] = at
    return placed


def reaction(user: str | None, content: str, at: str) -> Item:
    """A reaction (THUMBS_DOWN, THUMBS_UP, ...) by `user` at `at`."""
    return {"user": user, "content": content, "at": at}


def placed_issue(  # noqa: PLR0917  (the world's own field order)
    number: int, title: str, author: str | None, created: str, body: str, timeline: list[Item]
) -> Item:
    """An issue around a timeline whose items are placed already."""
    return {
        "number": number,
        "title": title,
        "body": body,
        "author": author,
        "created_at": created,
        "timeline": timeline,
    }


def issue(  # noqa: PLR0917  (the world's own field order)
    ids: CommentIds,
    number: int,
    title: str,
    author: str | None,
    created: str,
    body: str,
    steps: list[tuple[str, Item]],
) -> Item:
    """An issue from (when, item) steps; comments get ids, reactions get times a few minutes apart."""
    clock = Clock(created)
    timeline: list[Item] = []
    for when, template in steps:
        at = clock.advance(when)
        if template["type"] != "comment":
            timeline.append(place(template, at))
            continue
        item = place(template, at, ids.take())
        start = parse_time(at)
        item["reactions"] = [
            reaction(user, content, iso(start + timedelta(minutes=4 * (n + 1))))
            for n, (user, content) in enumerate(template.get("_reactions", []))
        ]
        timeline.append(item)
    return placed_issue(number, title, author, created, body, timeline)


def world(
    owner: str,
    name: str,
    *,
    users: dict[str, str],
    permissions: dict[str, str],
    files: dict[str, dict[str, str]],
    issues: list[Item],
    pull_requests: list[Item] | None = None,
    note: str | None = None,
    associations: dict[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A world's top level: the repository (default branch `main`), its accounts, its files by
    branch, its issues and pull requests; a note first when there is one, `extra` keys last.

    When the assistant is the app `triage-assistant` (a Bot of `users`), the world's default token
    is that app's (`viewer` `triage-assistant[bot]`, as GitHub answers an installation token): the
    reader, given no configuration, reads that account's analyses."""
    found: dict[str, Any] = {} if note is None else {"note": note}
    found["repository"] = {"owner": owner, "name": name, "default_branch": "main"}
    found["users"] = users
    found["permissions"] = permissions
    if associations is not None:
        found["associations"] = associations
    found["files"] = files
    found["issues"] = issues
    found["pull_requests"] = [] if pull_requests is None else pull_requests
    if users.get(ASSISTANT) == "Bot":
        found["viewer"] = f"{ASSISTANT}[bot]"
    return {**found, **extra}


def _escape_invisible(text: str) -> str:
    out: list[str] = []
    for char in text:
        if unicodedata.category(char) in _INVISIBLE and char not in "\n\t":
            encoded = char.encode("utf-16-be")
            out.extend(
                f"\\u{int.from_bytes(encoded[i : i + 2], 'big'):04x}" for i in range(0, len(encoded), 2)
            )
        else:
            out.append(char)
    return "".join(out)


def write_world(path: Path, world: dict[str, Any]) -> None:
    """Indented UTF-8 JSON; invisible characters are written as \\u escapes so a reviewer sees them."""
    text = json.dumps(world, indent=2, ensure_ascii=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_escape_invisible(text) + "\n", encoding="utf-8")
