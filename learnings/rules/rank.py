"""Ranking learnings for a change: the ones whose globs match a changed path first, then general ones.

Order (total, so the same store and paths always give the same list whatever the input order):

1. active learnings with a glob matching a changed path, by the specificity of their most specific
   matching glob (an exact path, then more literal leading segments, then more literal characters:
   `src/api/users.py` before `src/api/*.py` before `src/api/**` before `**/*.py` before `**`),
   then the most recently updated, then by id;
2. general learnings (no paths), the most recently updated first, then by id;
3. only when no changed paths are given: learnings with paths, the most recently updated first,
   then by id. With nothing to match, they may apply, but less surely than general ones.

With changed paths given, learnings whose globs match none of them are left out, and retired
learnings are always left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from learnings.rules.globs import PathIndex, parse_glob
from learnings.rules.model import Learning

Specificity = tuple[int, int, int]


def specificity(learning: Learning, index: PathIndex) -> Specificity | None:
    """The specificity of the learning's most specific glob matching a path of the index, if any."""
    best: Specificity | None = None
    for text in learning.paths:
        glob = parse_glob(text)
        if (best is None or glob.specificity > best) and index.any_match(glob):
            best = glob.specificity
    return best


def _recency(learning: Learning) -> tuple[float, str, str]:
    return (-learning.updatedAt.timestamp(), learning.id, learning.text)


def rank(learnings: Iterable[Learning], changed_paths: Sequence[str]) -> list[Learning]:
    """The active learnings that apply to a change, most relevant first (see the module's docstring)."""
    index = PathIndex(changed_paths)
    matched: list[tuple[tuple[int, int, int, float, str, str], Learning]] = []
    general: list[Learning] = []
    unmatched: list[Learning] = []
    for learning in learnings:
        if not learning.active:
            continue
        if learning.general:
            general.append(learning)
        elif not len(index):
            unmatched.append(learning)
        else:
            best = specificity(learning, index)
            if best is not None:
                matched.append(((-best[0], -best[1], -best[2], *_recency(learning)), learning))
    matched.sort(key=lambda pair: pair[0])
    general.sort(key=_recency)
    unmatched.sort(key=_recency)
    return [learning for _key, learning in matched] + general + unmatched
