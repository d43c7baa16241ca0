"""Expiry: a learning whose paths match no file of the base branch any more is stale.

A stale learning stays in the store (a maintainer retires or fixes it through a pull request), is
flagged by `learnings list`, and is left out of the prompt block, which says how many were.
"""

from __future__ import annotations

from collections.abc import Iterable

from learnings.globs import PathIndex, parse_glob
from learnings.model import Learning


def stale(learnings: Iterable[Learning], existing_paths: Iterable[str]) -> frozenset[str]:
    """The ids of active learnings with paths of which no glob matches any existing file.

    General learnings (no paths) and retired ones are never stale.
    """
    index = PathIndex(existing_paths)
    return frozenset(
        learning.id
        for learning in learnings
        if learning.active
        and learning.paths
        and not any(index.any_match(parse_glob(text)) for text in learning.paths)
    )
