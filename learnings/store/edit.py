"""Changing a store: add (deduplicated), edit, remove (retire), import (merge); pure functions on lists.

Two learnings are the same when their normalized texts are equal (and, for suppressions, their
categories): case, white space and punctuation do not make a new learning. The same one is updated
instead of copied: its `updatedAt` moves, its paths are merged, a retired one becomes active again.
Ids are `l_` and base36 characters of a hash of that key: the same text gets the same id in any
store, lengthened only when another learning already holds the short one.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal

from assistant.untrusted import clean_line
from learnings.rules.globs import check_globs
from learnings.rules.model import VERSION, Learning, Source
from learnings.store.jsonl import as_written

MAX_TEXT_CHARS = 500
_ID_LENGTH = 4
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


class EditError(ValueError):
    """An edit that cannot be made (unknown id, blank or overlong text); the message is one line."""


def normalize(text: str) -> str:
    """The text as compared for duplicates: NFKC, case-folded, punctuation and symbols dropped,
    white space folded."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(" " if unicodedata.category(char)[0] in "PSZC" else char for char in folded)
    return " ".join(kept.split())


def _key(kind: str, category: str | None, text: str) -> str:
    normalized = normalize(text)
    return f"suppression\0{category}\0{normalized}" if kind == "suppression" else f"note\0{normalized}"


def _base36(digest: bytes) -> str:
    number = int.from_bytes(digest, "big")
    chars: list[str] = []
    while number:
        number, digit = divmod(number, 36)
        chars.append(_BASE36[digit])
    return "".join(chars) or "0"


def new_id(key: str, taken: set[str] | frozenset[str]) -> str:
    """A short id from the key's hash: 4 characters, one more for each collision."""
    digits = _base36(hashlib.sha256(key.encode("utf-8")).digest())
    for length in range(_ID_LENGTH, len(digits) + 1):
        candidate = f"l_{digits[:length]}"
        if candidate not in taken:
            return candidate
    raise EditError("no free id")  # pragma: no cover - 40-odd characters of sha256 all taken


def _merged_paths(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[str, ...]:
    """The union in first-seen order; a general learning (no paths) already covers every path."""
    if not old or not new:
        return ()
    return tuple(dict.fromkeys(old + new))


def _same(learning: Learning, key: str) -> bool:
    return _key(learning.kind, learning.category, learning.text) == key


def _now(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(microsecond=0)


def add(
    existing: Sequence[Learning],
    text: str,
    paths: Sequence[str],
    category: str | None,
    now: datetime,
    *,
    kind: Literal["note", "suppression"] = "note",
    source: Source | None = None,
) -> tuple[list[Learning], Learning]:
    """The store with the learning added, and the learning as stored.

    Raises EditError for blank or overlong text, GlobError for a bad glob, pydantic's
    ValidationError for a bad category or a suppression without category or paths.
    """
    cleaned = clean_line(text)
    if not normalize(cleaned):
        raise EditError("the text of a learning needs letters or digits")
    if len(cleaned) > MAX_TEXT_CHARS:
        raise EditError(f"the text of a learning has at most {MAX_TEXT_CHARS} characters")
    globs = tuple(dict.fromkeys(check_globs(paths)))
    moment = _now(now)
    key = _key(kind, category, cleaned)
    for index, old in enumerate(existing):
        if _same(old, key):
            merged_paths = _merged_paths(old.paths, globs)
            updated = old.model_copy(
                update={
                    "paths": merged_paths,
                    "scope": "path" if merged_paths else "repo",
                    "category": old.category if old.category is not None else category,
                    "updatedAt": max(moment, old.updatedAt),
                    "status": "active",
                }
            )
            updated = as_written(updated)
            return [*existing[:index], updated, *existing[index + 1 :]], updated
    learning = Learning.model_validate(
        {
            "v": VERSION,
            "id": new_id(key, {old.id for old in existing}),
            "scope": "path" if globs else "repo",
            "kind": kind,
            "text": cleaned,
            "paths": globs,
            "category": category,
            "source": source or Source(),
            "createdAt": moment,
            "updatedAt": moment,
            "status": "active",
        }
    )
    return [*existing, learning], learning


def edit(
    existing: Sequence[Learning],
    learning_id: str,
    now: datetime,
    *,
    text: str | None = None,
    paths: Sequence[str] | None = None,
) -> tuple[list[Learning], Learning]:
    """The store with one learning's text and/or paths changed in place (same id, same source).

    `paths` replaces the paths; an empty sequence makes the learning general. Nothing changed
    returns the store as it was. Raises EditError for an unknown id, blank or overlong text, a text
    that another learning already has, or a suppression left without paths; GlobError for a bad glob.
    """
    for index, old in enumerate(existing):
        if old.id != learning_id:
            continue
        update: dict[str, object] = {}
        if text is not None:
            cleaned = clean_line(text)
            if not normalize(cleaned):
                raise EditError("the text of a learning needs letters or digits")
            if len(cleaned) > MAX_TEXT_CHARS:
                raise EditError(f"the text of a learning has at most {MAX_TEXT_CHARS} characters")
            key = _key(old.kind, old.category, cleaned)
            twin = next((other for other in existing if other.id != old.id and _same(other, key)), None)
            if twin is not None:
                raise EditError(f"learning `{twin.id}` already has that text; edit or remove that one")
            update["text"] = cleaned
        if paths is not None:
            globs = tuple(dict.fromkeys(check_globs(paths)))
            if old.kind == "suppression" and not globs:
                raise EditError("a suppression needs at least one path")
            update["paths"] = globs
            update["scope"] = "path" if globs else "repo"
        changed = old.model_copy(update=update)
        if changed == old:
            return list(existing), old
        changed = as_written(changed.model_copy(update={"updatedAt": max(_now(now), old.updatedAt)}))
        return [*existing[:index], changed, *existing[index + 1 :]], changed
    raise EditError(f"unknown learning id `{learning_id}`")


def what_add_did(before: Learning | None, after: Learning, paths: Sequence[str]) -> str:
    """One plain sentence on what `add` did to a learning that has the same text, or "" for a new one."""
    if before is None:
        return ""
    said = [f"updated {after.id}, which already has this text (no new learning)"]
    if not before.active:
        said.append("it was retired and is active again")
    asked = tuple(dict.fromkeys(paths))
    if before.general and asked:
        said.append("it is already general (it applies to every path), so the paths given were not added")
    elif not before.general and not asked:
        said.append("it applied to " + ", ".join(before.paths) + " and is now general (every path)")
    elif not before.general:
        new = [path for path in after.paths if path not in before.paths]
        if new:
            said.append("paths merged: " + ", ".join(after.paths))
        else:
            said.append("its paths already include those given: " + ", ".join(before.paths))
    return "; ".join(said)


def remove(existing: Sequence[Learning], learning_id: str, now: datetime) -> tuple[list[Learning], Learning]:
    """The store with the learning retired (never erased, so its history stays reviewable).

    Retiring a retired learning changes nothing. Raises EditError for an unknown id.
    """
    for index, old in enumerate(existing):
        if old.id == learning_id:
            if not old.active:
                return list(existing), old
            retired = old.model_copy(update={"status": "retired", "updatedAt": max(_now(now), old.updatedAt)})
            return [*existing[:index], retired, *existing[index + 1 :]], retired
    raise EditError(f"unknown learning id `{learning_id}`")


def merge(
    existing: Sequence[Learning], incoming: Sequence[Learning], now: datetime
) -> tuple[list[Learning], int, int]:
    """The store with another store's learnings merged in: (learnings, how many added, how many updated).

    The same deduplication as `add`. A new learning keeps its id (or gets a fresh one when that id
    is taken), source and dates. A known one gets the incoming paths and becomes active again, and
    is touched only when that changes something, so importing a file twice changes nothing the
    second time. A retired incoming learning never retires a known one.
    """
    result = list(existing)
    index_of = {
        _key(old.kind, old.category, old.text): index for index, old in reversed(list(enumerate(result)))
    }
    taken = {old.id for old in result}
    added = updated = 0
    for learning in incoming:
        key = _key(learning.kind, learning.category, learning.text)
        match = index_of.get(key)
        if match is None:
            fresh = (
                learning
                if learning.id not in taken
                else learning.model_copy(update={"id": new_id(key, taken)})
            )
            index_of[key] = len(result)
            taken.add(fresh.id)
            result.append(fresh)
            added += 1
            continue
        old = result[match]
        if not learning.active:
            continue
        paths = _merged_paths(old.paths, learning.paths)
        if paths == old.paths and old.active:
            continue
        result[match] = old.model_copy(
            update={
                "paths": paths,
                "scope": "path" if paths else "repo",
                "status": "active",
                "updatedAt": max(_now(now), old.updatedAt),
            }
        )
        updated += 1
    return result, added, updated
