"""Recording candidates in a store's text: deduplicated, and only when something really changes.

Each candidate goes through `learnings.store.edit.add` (notes) or `learnings.store.suppression.suppress`
(ignore-rule), so the same text is one learning. A candidate that would only move the `updatedAt`
of a learning already in the store is left out: the same command in another comment changes
nothing, and a sync that finds nothing new writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import ValidationError

from learnings.rules.globs import GlobError
from learnings.rules.model import Learning
from learnings.store.edit import EditError, add
from learnings.store.jsonl import updated_text
from learnings.store.suppression import suppress
from learnings.sync.gather import Candidate, where


@dataclass(frozen=True)
class Recorded:
    """The store's new text and the learnings this recording added or changed (in order)."""

    text: str
    changed: tuple[Learning, ...]
    notes: tuple[str, ...]


def _same_but_time(old: Learning, new: Learning) -> bool:
    return old.model_copy(update={"updatedAt": new.updatedAt}) == new


def _describe(candidate: Candidate) -> str:
    source = candidate.source
    kind = "issue" if source.issue is not None else "pull_request"
    number = source.issue if source.issue is not None else source.pull_request
    return where(kind, number or 0, source.comment)


def record(
    original: str, existing: Sequence[Learning], candidates: Iterable[Candidate], now: datetime
) -> Recorded:
    """The store text with the candidates recorded; notes for those that cannot be."""
    store = list(existing)
    changed: dict[str, Learning] = {}
    notes: list[str] = []
    for candidate in candidates:
        before = {learning.id: learning for learning in store}
        try:
            if candidate.finding is not None:
                updated, learning = suppress(store, candidate.finding, now, source=candidate.source)
            else:
                updated, learning = add(
                    store,
                    candidate.text,
                    candidate.paths,
                    candidate.category,
                    now,
                    kind="note",
                    source=candidate.source,
                )
        except (EditError, GlobError, ValidationError) as error:
            reason = str(error).splitlines()[0] if isinstance(error, EditError | GlobError) else "not valid"
            notes.append(f"{_describe(candidate)}: not recorded: {reason}")
            continue
        old = before.get(learning.id)
        if old is not None and _same_but_time(old, learning):
            continue
        store = updated
        changed[learning.id] = learning
    return Recorded(text=updated_text(original, store), changed=tuple(changed.values()), notes=tuple(notes))
