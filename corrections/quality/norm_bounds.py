"""Lower bounds of the candidates' n-gram norms from one ranking to the next, without computing them (pure).

A candidate's n-gram vector has length sqrt(sum over its pieces of (tf * idf)^2), idf = ln((1 + N) /
(1 + df)) + 1 over the N candidates, so every candidate's norm changes whenever one joins or leaves:
computing them all for each of a month's rankings is what grew as the square of its analyses. A
ranking needs them exactly only for the candidates that can reach its first places
(corrections/quality/similar_index.py, `Ranking.order`); for the others a lower bound is enough, and
one is known from the norm computed last (`norm0`, at N0 candidates):

- a candidate leaving only lowers document frequencies, so no piece's idf falls by more than
  ln((1 + N0) / (1 + N)) (the part every idf shares), at most (N0 - N) / (1 + N);
- a candidate joining raises the document frequency of its own pieces by one. For a piece already in
  more than RARE candidates that raises ln(1 + df) by at most ln(1 + 1 / (RARE + 2)); a piece in at
  most RARE candidates may weigh much less after, so the candidates holding it are told (`join`) and
  their last norm is forgotten (computed again when next asked).

So each idf is at least its value then less e = joined * ln(1 + 1 / (RARE + 2)) + max(N0 - N, 0) /
(1 + N) (joined: candidates that joined since), and the norm is at least norm0 - e * |tf| (the
triangle inequality; |tf|: the norm of the piece counts), while e stays at most MAX_DROP (every idf
is at least 1, so no weight reaches 0). tests/corrections/quality/test_similar_index.py holds the
order found with these bounds against the brute force.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

RARE = 32  # a piece in at most this many candidates: its candidates are told when one more holds it
MAX_DROP = 0.5  # past this bound on an idf's fall, the norm is computed again
# Relative slack for the rounding of the bounds' own arithmetic (each step errs by about 1e-16).
SLACK = 1e-9


class NormBounds:
    """The norm each candidate had when last computed, the pieces' candidates, and how many
    candidates joined since (the ranking's `Counter` of document frequencies stays the ranking's)."""

    def __init__(self, rare: int = RARE) -> None:
        self._rare = rare
        self._step = math.log1p(1 / (rare + 2))
        self._holders: dict[str, set[int]] = {}  # piece -> the candidates holding it
        self._last: dict[int, tuple[float, int, int]] = {}  # candidate -> (norm, N then, joined then)
        self._joined = 0

    def clear(self) -> None:
        """No candidates (a ranking starting over)."""
        self._holders.clear()
        self._last.clear()

    def join(self, key: int, pieces: Iterable[str], df_before: Mapping[str, int]) -> None:
        """Candidate `key` joins; `df_before`: the pieces' document frequencies before it did."""
        self._joined += 1
        holders, rare, last = self._holders, self._rare, self._last
        for piece in pieces:
            found = holders.get(piece)
            if found is None:
                holders[piece] = {key}
                continue
            if df_before.get(piece, 0) <= rare:
                for other in found:
                    last.pop(other, None)
            found.add(key)

    def leave(self, key: int, pieces: Iterable[str]) -> None:
        """Candidate `key` leaves."""
        self._last.pop(key, None)
        holders = self._holders
        for piece in pieces:
            found = holders.get(piece)
            if found is not None:
                found.discard(key)

    def remember(self, key: int, norm: float, total: int) -> None:
        """Candidate `key`'s norm computed exactly with `total` candidates."""
        self._last[key] = (norm, total, self._joined)

    def lowers(self, keys: Sequence[int], count_norms: Sequence[float], total: int) -> list[float]:
        """A lower bound of each candidate's norm now (`count_norms`: the norms of their piece
        counts), or 0.0 where none is known (its norm must be computed)."""
        found = [0.0] * len(keys)
        joined_now, step, get = self._joined, self._step, self._last.get
        for place, key in enumerate(keys):
            last = get(key)
            if last is None:
                continue
            norm, then, joined = last
            # ln((1 + then) / (1 + total)) <= (then - total) / (1 + total), the part every idf lost
            drop = (joined_now - joined) * step + max(then - total, 0) / (1 + total)
            if drop <= MAX_DROP:
                found[place] = (norm - (drop + SLACK) * count_norms[place]) * (1 - SLACK)
        return found
