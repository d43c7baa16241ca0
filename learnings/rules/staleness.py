"""Expiry: a learning whose paths match no file of the base branch any more is stale.

A stale learning stays in the store (a maintainer retires or fixes it through a pull request), is
flagged by `learnings list`, and is left out of the prompt block, which says how many were.
"""

from __future__ import annotations

from collections.abc import Iterable

from learnings.rules.globs import PathIndex, parse_glob
from learnings.rules.model import Learning


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


_WILDCARDS = frozenset("*?[{")


def anchor(glob: str) -> str:
    """The literal path a glob starts with: the whole path for an exact one, else its leading folders.

    A glob such as `**/*.py` has no anchor (""): it can never be shown stale by its anchor.
    """
    segments = glob.strip("/").split("/")
    literal: list[str] = []
    for segment in segments:
        if _WILDCARDS & set(segment):
            break
        literal.append(segment)
    return "/".join(literal)


def anchors(learnings: Iterable[Learning]) -> frozenset[str]:
    """The anchors worth checking on the base branch (active learnings with paths only)."""
    return frozenset(
        found
        for learning in learnings
        if learning.active
        for glob in learning.paths
        if (found := anchor(glob))
    )


def stale_by_anchors(learnings: Iterable[Learning], exists: dict[str, bool]) -> frozenset[str]:
    """Ids of active learnings whose every glob is anchored at a path the base branch no longer has.

    This is what `corrections read` can know from GitHub in one look-up per anchor: a glob with
    no anchor, or one not checked, keeps its learning fresh.
    """
    stale_ids = set()
    for learning in learnings:
        if not learning.active or not learning.paths:
            continue
        if all(exists.get(anchor(glob)) is False for glob in learning.paths):
            stale_ids.add(learning.id)
    return frozenset(stale_ids)
