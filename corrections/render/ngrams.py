"""Character n-gram TF-IDF in pure Python: how near two issues are, however they are worded.

Words are compared by their pieces, not whole: `certificate`, `Zertifikat` and `certificado`
share `ert`, `rtif`, `tifi`; `timed`, `timeout` and `Timeouts` share `tim`, `time`; `Windows-Pfad`
and `windows` share every piece of `windows`. That finds the same subject across inflections,
compounds, cognates in other languages and identifiers in stack traces, where whole-word BM25
finds nothing. Measured on paraphrased and multilingual new issues in bench/nearest.py (see
docs/corrections.md, "Which lines come first").

- features: the text in NFKC, lower-cased, cut into runs of letters and digits (`_` and every
  other sign separate them), a run of Chinese, Japanese or Korean characters apart from Latin
  letters glued to it (`Windows上路径` is `windows` and `上路径`: people write CJK without
  spaces, and whole-word BM25 saw one word there). Each run gives the 3- to 5-character pieces
  of " run " (padded with a space, so a piece can tell a word's start and end), CJK runs too.
  CJK runs as pairs of characters (Lucene's CJK analyser), or as characters and pairs, were
  measured too and ranked worse first lines: pairs such as `ます` or `的文` match any issue in
  the language.
- weight(piece, doc) = tf * idf, idf = ln((1 + N) / (1 + df)) + 1 over the N documents; each
  document's vector has length 1. A document's score is the dot product with the query's vector
  (also of length 1), so 0.0 when they share no piece, at most 1.0.

Norms are taken in a fixed order (the pieces in the order they first appear) and the dot product
is an exactly rounded sum (`math.fsum`), so the same texts give the same scores, bit for bit, on
every run and whatever the hash seed.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence

SIZES = (3, 4, 5)
# Han (with extensions A and compatibility), Hiragana, Katakana (with phonetic extensions and
# half-width forms), Hangul syllables and jamo.
_CJK = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\u1100-\u11ff\uac00-\ud7af"
)
_RUN = re.compile(rf"[{_CJK}]+|(?:(?![{_CJK}])[^\W_])+")
_IS_CJK = re.compile(rf"[{_CJK}]")


def is_cjk(run: str) -> bool:
    """Whether a run (of `runs`) is of CJK characters."""
    return _IS_CJK.match(run) is not None


Pieces = Callable[[str], tuple[str, ...]]


@functools.lru_cache(maxsize=8192)
def pieces(run: str) -> tuple[str, ...]:
    """The pieces of one run (lower-cased already)."""
    padded = f" {run} "
    return tuple(padded[index : index + size] for size in SIZES for index in range(len(padded) - size + 1))


def runs(text: str) -> list[str]:
    """The runs of `text`: NFKC, lower-cased, CJK apart from other letters and digits."""
    return _RUN.findall(unicodedata.normalize("NFKC", text).lower())


def counts(text: str, cut: Pieces = pieces) -> Counter[str]:
    """How often each piece occurs in `text` (pieces in the order they first appear)."""
    return Counter(itertools.chain.from_iterable(map(cut, runs(text))))


def features(text: str) -> list[str]:
    """The pieces of `text`, each repeated as often as it occurs."""
    return list(counts(text).elements())


# A replay (a backtest, a report, the loop) ranks the same issues' texts once per analysis: each
# text is cut into pieces once. The texts are bounded (corrections/render/nearest.py's issue_text),
# so the cache is too: at most this many texts' counts, a few tens of kilobytes each.
_COUNTED_TEXTS = 1024


@functools.lru_cache(maxsize=_COUNTED_TEXTS)
def _counted(text: str) -> Counter[str]:
    """`counts(text)`, shared between calls: read only, never changed by its callers."""
    return counts(text)


def scores(documents: Sequence[str], query: str, cut: Pieces = pieces) -> list[float]:
    """Cosine similarity of each document's TF-IDF vector with the query's; all 0.0 when they
    share no piece (or the query has none). `cut` is `pieces`; bench/rankers.py passes others."""
    count = _counted if cut is pieces else functools.partial(counts, cut=cut)
    counted = [count(text) for text in documents]
    frequency: Counter[str] = Counter(itertools.chain.from_iterable(counted))
    asked = {piece: times for piece, times in counts(query, cut).items() if piece in frequency}
    if not asked:
        return [0.0] * len(documents)
    total = len(documents)
    idf = {piece: math.log((1 + total) / (1 + df)) + 1 for piece, df in frequency.items()}
    query_norm = math.hypot(*(times * idf[piece] for piece, times in asked.items()))
    # The query's weight times the idf once more: a shared piece adds weight * its count in a document.
    wanted = {piece: times * idf[piece] ** 2 for piece, times in asked.items()}
    found = []
    for document in counted:
        norm = math.hypot(*map(operator.mul, document.values(), map(idf.__getitem__, document)))
        if not norm:
            found.append(0.0)
            continue
        # fsum is exactly rounded, so the order of the shared pieces (a set's) changes nothing.
        dot = math.fsum(wanted[piece] * document[piece] for piece in wanted.keys() & document.keys())
        found.append(dot / (norm * query_norm))
    return found
