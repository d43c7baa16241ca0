"""The budget of the prompt block: at most so many learnings and so many characters, in rank order.

Learnings are taken in rank order while both budgets allow; the first one that does not fit ends
the block, so a lower-ranked learning never takes the place of a higher-ranked one. Stale learnings
among the ranked ones are left out before. What is left out is counted, so the block can say so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict

from learnings.model import Learning

DEFAULT_MAX_CHARS = 4000


class Budgeted(BaseModel):
    """The learnings that fit, how many ranked ones did not, and how many stale ones were left out."""

    model_config = ConfigDict(frozen=True)

    shown: tuple[Learning, ...]
    cut: int
    stale: int


def fit(
    ranked: Sequence[Learning],
    *,
    max_entries: int,
    max_chars: int,
    size: Callable[[Learning], int],
    stale_ids: frozenset[str] = frozenset(),
) -> Budgeted:
    """The ranked learnings within the budgets; `size` is the length of one rendered entry.

    Ranked learnings whose ids are in `stale_ids` are left out first and counted as stale.
    """
    fresh = [learning for learning in ranked if learning.id not in stale_ids]
    shown: list[Learning] = []
    used = 0
    for learning in fresh:
        cost = size(learning)
        if len(shown) >= max_entries or used + cost > max_chars:
            break
        shown.append(learning)
        used += cost
    return Budgeted(shown=tuple(shown), cut=len(fresh) - len(shown), stale=len(ranked) - len(fresh))
