"""The learnings as they stood at a past moment, from the file read today (pure).

A learning created at or after the moment did not exist then: it is left out. A learning retired
since (its `updatedAt` at or after the moment) was still active then: it is given as active. The
backtest applies it to the file as it was at the moment when the file's history says
(corrections/quality/file_as_of.py: an earlier wording too), else to today's file.
"""

from __future__ import annotations

from datetime import datetime

from learnings.store.jsonl import LoadedLearnings


def learnings_as_of(loaded: LoadedLearnings | None, moment: datetime) -> LoadedLearnings | None:
    """`loaded` as of `moment` (None stays None: the learnings were not read)."""
    if loaded is None:
        return None
    kept = [
        learning.model_copy(update={"status": "active"})
        if learning.status == "retired" and learning.updatedAt >= moment
        else learning
        for learning in loaded.learnings
        if learning.createdAt < moment
    ]
    return loaded.model_copy(update={"learnings": tuple(kept)})
