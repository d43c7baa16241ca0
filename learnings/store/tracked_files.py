"""The files git tracks in the checkout of a learnings file, against which its learnings go stale.

The local commands (`list`, `show`, `render`) have no base branch to ask GitHub about: the local
checkout stands in for it. Outside a git checkout, staleness cannot be known and is not looked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from commandline.checkout import tracked_files
from learnings.rules.model import Learning
from learnings.rules.staleness import stale


def tracked_paths(store_path: Path) -> list[str] | None:
    """The files tracked by git in the repository of `store_path`, or None when that cannot be known."""
    directory = store_path.resolve().parent
    while not directory.is_dir():
        directory = directory.parent
    return tracked_files(directory)


def stale_in_checkout(store_path: Path, learnings: Sequence[Learning]) -> frozenset[str] | None:
    """The ids of stale learnings against the tracked files; None outside a git checkout.

    Git is not asked when no active learning has paths (none can be stale).
    """
    if not any(learning.active and learning.paths for learning in learnings):
        return frozenset()
    existing = tracked_paths(store_path)
    if existing is None:
        return None
    return stale(learnings, existing)
