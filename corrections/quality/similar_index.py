"""The reader's similarity ranking over one read's issues, with each text's pieces computed once (pure).

A monthly report ranks, for every corrected first analysis, the corrected issues analysed before it
(corrections/quality/recurrences.py): thousands of rankings of the same texts. `nearest_first`
(corrections/render/nearest.py) tokenizes every text again for each ranking and counts each word's
and piece's documents from scratch, which made the report's CPU grow as the square of its analyses.
Here each text's stems and character pieces are counted once a read, and the document frequencies
are kept from one ranking to the next and changed only by the issues that joined or left the
candidates (one ranking's candidates are the last one's and one issue more, in a month's walk).

The scores are those of `nearest.similarity`, bit for bit: the same float operations on the same
values in the same order (BM25's float32 steps, the n-grams' norms in the pieces' first order,
`math.fsum` for the dot product), so the order, ties included, is the same.
tests/corrections/quality/test_similar_index.py holds both against each other on random worlds.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from corrections.quality.norm_bounds import RARE, SLACK, NormBounds
from corrections.render import bm25, ngrams
from corrections.render.nearest import FUSION_K

_T = TypeVar("_T")
_ZEROS = itertools.repeat(0.0)  # what a piece the query lacks adds to a dot product
FIRST_EXACT = 8  # `Ranking.order`: the n-gram scores computed exactly first, then twice as many


@dataclass(frozen=True)
class Features:
    """What the ranking reads of one text: its stems (BM25) and its character pieces (n-grams)."""

    stems: tuple[str, ...]  # in order, repeats included (a query's are summed in this order)
    stem_count: int  # len(stems): BM25's document length
    stem_counts: Mapping[str, int]
    distinct_stems: tuple[str, ...]
    pieces: Mapping[str, int]  # Counter, in the pieces' first order
    piece_keys: tuple[str, ...]
    piece_values: tuple[int, ...]
    piece_set: frozenset[str]
    count_norm: float  # the norm of the piece counts (every weight is at least 1)
    by_count: tuple[tuple[int, tuple[str, ...]], ...]  # the pieces grouped by their count

    @classmethod
    def of(cls, text: str) -> Features:
        stems = bm25.stems(text)
        counted = Counter(stems)
        pieces = ngrams.counts(text)
        return cls(
            stems=tuple(stems),
            stem_count=len(stems),
            stem_counts=counted,
            distinct_stems=tuple(counted),
            pieces=pieces,
            piece_keys=tuple(pieces),
            piece_values=tuple(pieces.values()),
            piece_set=frozenset(pieces),
            count_norm=math.hypot(*pieces.values()),
            by_count=tuple(
                (count, tuple(piece for piece, times in pieces.items() if times == count))
                for count in sorted(set(pieces.values()))
            ),
        )


class Ranking:
    """`nearest.similarity` over documents given as Features, keeping the document frequencies of the
    last call's documents and changing them only by the documents that differ (by key)."""

    def __init__(self, first: int = FIRST_EXACT, rare: int = RARE) -> None:
        self._members: dict[int, Features] = {}
        self._stem_df: Counter[str] = Counter()
        self._piece_df: Counter[str] = Counter()
        self._stem_total = 0
        self._first = first  # `order`: the candidates scored exactly first (then twice as many)
        self._bounds = NormBounds(rare)

    def _become(self, documents: Mapping[int, Features]) -> None:
        added = [key for key in documents if key not in self._members]
        removed = [key for key in self._members if key not in documents]
        if len(added) + len(removed) > len(documents):
            self._members = {}
            self._stem_df, self._piece_df, self._stem_total = Counter(), Counter(), 0
            self._bounds.clear()
            added, removed = list(documents), []
        for key in removed:
            gone = self._members.pop(key)
            self._bounds.leave(key, gone.piece_keys)
            self._stem_df.subtract(gone.distinct_stems)
            self._piece_df.subtract(gone.piece_keys)
            self._stem_total -= gone.stem_count
        for key in added:
            new = documents[key]
            self._members[key] = new
            self._bounds.join(key, new.piece_keys, self._piece_df)
            self._stem_df.update(new.distinct_stems)
            self._piece_df.update(new.piece_keys)
            self._stem_total += new.stem_count

    def similarity(self, documents: Mapping[int, Features], query: Features) -> list[float]:
        """`nearest.similarity([text of each document], query's text)`, in the mapping's order."""
        self._become(documents)
        docs = list(documents.values())
        # found = 0.0, then += 1 / (FUSION_K + rank) for each ranking whose score is above 0, as
        # nearest.similarity adds them; adding 0.0 where a score is 0 changes no sum.
        found = [0.0] * len(documents)
        for values in (self._bm25(docs, query), self._ngrams(docs, query)):
            share = _shares(values)
            found = list(map(operator.add, found, map(share.__getitem__, values)))
        return found

    def _bm25(self, docs: Sequence[Features], query: Features) -> list[float]:
        """bm25.scores on the documents' stems against the query's."""
        df = self._stem_df
        wanted = [word for word in query.stems if df.get(word, 0) > 0]
        if not wanted:
            return [0.0] * len(docs)
        total = len(docs)
        average = self._stem_total / total
        idf = {
            word: bm25._float32(math.log(1 + (total - df[word] + 0.5) / (df[word] + 0.5))) for word in wanted
        }
        k1, b, to_float32 = bm25.K1, bm25.B, bm25._float32
        # Documents of the same length with the same counts of the wanted words score the same.
        known: dict[tuple[int, tuple[int | None, ...]], float] = {}
        found = []
        for doc in docs:
            shape = (doc.stem_count, tuple(map(doc.stem_counts.get, wanted)))
            score = known.get(shape)
            if score is None:
                norm = k1 * ((1 - b) + b * doc.stem_count / average)
                score = 0.0
                for word, tf in zip(wanted, shape[1], strict=True):
                    if tf:
                        score = to_float32(score + to_float32(idf[word] * (tf / (norm + tf))))
                known[shape] = score
            found.append(score)
        return found

    def _weights(self, total: int, query: Features) -> _Weights | None:
        """The query's side of ngrams.scores over `total` documents; None when it shares no piece."""
        df = self._piece_df
        asked = {piece: times for piece, times in query.pieces.items() if df.get(piece, 0) > 0}
        if not asked:
            return None
        by_df = _Idf(total)
        idf = {piece: by_df[df[piece]] for piece in asked}
        return _Weights(
            by_df=by_df,
            asked=frozenset(asked),
            wanted={piece: times * idf[piece] ** 2 for piece, times in asked.items()},
            query_norm=math.hypot(*(times * idf[piece] for piece, times in asked.items())),
        )

    def _norm(self, doc: Features, weights: _Weights) -> float:
        """The document's n-gram norm, as ngrams.scores computes it (the pieces in their first order)."""
        weight_of, count_of = weights.by_df.__getitem__, self._piece_df.__getitem__
        return math.hypot(*map(operator.mul, doc.piece_values, map(weight_of, map(count_of, doc.piece_keys))))

    @staticmethod
    def _score(doc: Features, norm: float, weights: _Weights) -> float:
        """The document's n-gram score with its norm, as ngrams.scores computes it."""
        if not norm:
            return 0.0
        shared = weights.asked & doc.piece_set
        dot = math.fsum(
            map(operator.mul, map(weights.wanted.__getitem__, shared), map(doc.pieces.__getitem__, shared))
        )
        return dot / (norm * weights.query_norm)

    def _ngrams(self, docs: Sequence[Features], query: Features) -> list[float]:
        """ngrams.scores on the documents' pieces against the query's."""
        weights = self._weights(len(docs), query)
        if weights is None:
            return [0.0] * len(docs)
        return [self._score(doc, self._norm(doc, weights), weights) for doc in docs]

    def order(self, documents: Mapping[int, Features], query: Features) -> Iterator[int]:
        """The documents' places in the mapping, nearest first: the order of `similarity`'s scores,
        highest first, ties in the mapping's order, given lazily.

        Each n-gram score is bounded from above first (the shared pieces' weights summed against a
        lower bound of the document's norm, corrections/quality/norm_bounds.py) and computed exactly
        only for the documents of the highest bounds, `first` of them, then twice as many each time
        the next place cannot be told yet. A document's fused share is known once its n-gram rank
        is: no document left unscored can rank above it. Every other document's n-gram rank is
        below the K documents known to score above the highest bound left, so its share is at most
        1 / (FUSION_K + K + 1): a place is given once no such document could come before it.
        """
        self._become(documents)
        keys = list(documents)
        docs = list(documents.values())
        bm25 = self._bm25(docs, query)
        by_value = _shares(bm25)
        first = [by_value[value] for value in bm25]  # 0.0 + a share is the share
        by_first = sorted(range(len(docs)), key=lambda place: -first[place])
        weights = self._weights(len(docs), query)
        if weights is None:  # no piece shared: the n-grams add 0.0 to every share
            yield from by_first
            return
        total, bounds = len(docs), self._bounds
        lows = bounds.lowers(keys, [doc.count_norm for doc in docs], total)
        wanted_or_0, query_norm = weights.wanted.get, weights.query_norm
        exact: dict[int, float] = {}  # place -> its n-gram score
        norms: dict[int, float] = {}  # place -> its norm now, where computed
        upper = [0.0] * len(docs)
        unscored: list[int] = []
        for place, doc in enumerate(docs):
            # The dot product, summed by the pieces' counts (no product per piece): only a bound.
            dot = 0.0
            for count, pieces in doc.by_count:
                dot += count * sum(map(wanted_or_0, pieces, _ZEROS))
            if not dot:
                exact[place] = 0.0  # no piece shared: the score is 0.0 (and 0.0 without pieces)
                continue
            low = lows[place]
            if not low:
                norms[place] = norm = self._norm(doc, weights)
                bounds.remember(keys[place], norm, total)
                low = norm * (1 - SLACK)
            upper[place] = dot * (1 + SLACK) / (low * query_norm)
            unscored.append(place)
        unscored.sort(key=upper.__getitem__, reverse=True)
        scored, batch, given, next_first, lowest = 0, self._first, 0, 0, 0
        while True:
            for place in unscored[scored : scored + batch]:
                known_norm = norms.get(place)
                if known_norm is None:
                    known_norm = self._norm(docs[place], weights)
                    bounds.remember(keys[place], known_norm, total)
                exact[place] = self._score(docs[place], known_norm, weights)
            scored, batch = min(scored + batch, len(unscored)), batch * 2
            ceiling = upper[unscored[scored]] if scored < len(unscored) else None
            share = _shares(list(exact.values()))
            known = sorted(
                (-(first[place] + share[value]), place)
                for place, value in exact.items()
                if ceiling is None or not value or value >= ceiling
            )
            if ceiling is None:
                yield from (place for _, place in known[given:])
                return
            above = sum(1 for value in exact.values() if value > ceiling)
            at_most = 1 / (FUSION_K + above + 1)
            # The unknown document with the highest bound: the first in BM25's order not known.
            known_places = {place for _, place in known}
            while by_first[next_first] in known_places:
                next_first += 1
            while lowest in known_places:
                lowest += 1
            # Two shares may round to the same sum: a tie is told by the lowest place not known.
            bound = (-(first[by_first[next_first]] + at_most), lowest)
            while given < len(known) and known[given] < bound:
                yield known[given][1]
                given += 1


class _Idf(dict[int, float]):
    """ngrams.scores's idf by document frequency over `total` documents, each computed when first
    asked: ln((1 + N) / (1 + df)) + 1."""

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total

    def __missing__(self, count: int) -> float:
        value = self[count] = math.log((1 + self.total) / (1 + count)) + 1
        return value


@dataclass(frozen=True)
class _Weights:
    """The query's side of one n-gram ranking."""

    by_df: _Idf
    asked: frozenset[str]  # the query's pieces some document holds
    wanted: dict[str, float]  # the query's weight of each times its idf once more
    query_norm: float


def _shares(values: Sequence[float]) -> dict[float, float]:
    """Each value's share in the fusion: 1 / (FUSION_K + its rank) when above 0, else 0.0; its rank
    is nearest._ranks's (1 + how many values are higher: equal values share the better rank)."""
    shares: dict[float, float] = {}
    higher = 0
    for value, times in sorted(Counter(values).items(), reverse=True):
        shares[value] = 1 / (FUSION_K + higher + 1) if value > 0 else 0.0
        higher += times
    return shares


EMPTY = Features.of("")


class ReadIndex:
    """One read's ranking texts as Features (each computed once, when first ranked) and two
    rankings: the walk's (each analysis's earlier corrected issues) and the context's lines'."""

    def __init__(self, texts: Mapping[int, str]) -> None:
        self._texts = texts
        self._features: dict[int, Features] = {}
        self.walk = Ranking()
        self.shown = Ranking()

    def features(self, number: int) -> Features:
        """The Features of issue `number`'s ranking text ("" for an issue the read has no text of)."""
        found = self._features.get(number)
        if found is None:
            text = self._texts.get(number)
            found = EMPTY if text is None else Features.of(text)
            self._features[number] = found
        return found

    def nearest_first(
        self, ranking: Ranking, items: Sequence[_T], numbers: Sequence[int], query: str
    ) -> list[_T]:
        """`nearest.nearest_first` of `items` (issue `numbers[i]` each, numbers distinct) against
        `query`: the same order, ties included."""
        if len(items) < 2 or not query.strip():
            return list(items)
        documents = {number: self.features(number) for number in numbers}
        if len(documents) != len(items):  # the same issue twice: rank these apart from the others
            ranking = Ranking()
            documents = {index: self.features(number) for index, number in enumerate(numbers)}
        scores = ranking.similarity(documents, Features.of(query))
        order = sorted(range(len(items)), key=lambda index: -scores[index])
        return [items[index] for index in order]

    def nearest_lazily(
        self, ranking: Ranking, items: Sequence[_T], numbers: Sequence[int], query: str
    ) -> Iterator[_T]:
        """`nearest_first`'s order, given one item at a time (`Ranking.order`): a caller that needs
        only the first few does not pay for the exact place of every other."""
        if len(items) < 2 or not query.strip():
            yield from items
            return
        known, features = self._features.get, self.features
        documents = {number: known(number) or features(number) for number in numbers}
        if len(documents) != len(items):
            ranking = Ranking()
            documents = {index: self.features(number) for index, number in enumerate(numbers)}
        for place in ranking.order(documents, Features.of(query)):
            yield items[place]
