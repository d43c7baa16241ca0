"""BM25 in pure Python, scoring exactly as the `bm25s` library does (Lucene's variant, k1 1.5, b 0.75).

The ranking of corrections/render/nearest.py fuses it, on light stems (`stems`), with character
n-grams (corrections/render/ngrams.py); a few dozen short documents are scored once per run.
bm25s did it with numpy, which a cold runner downloaded (about 16 MB) for that alone. This module
gives the same scores bit for bit, so the same order, ties included: bm25s keeps each
(document, word) weight and each sum in float32, so every such value is rounded to float32 here
too, at the same step (`_float32`), and the sums run in the order of the query's words.
tests/corrections/render/test_bm25.py compares both on every world of the repository.

- tokens: lower-cased, every run of two or more word characters (`(?u)\\b\\w\\w+\\b`), minus
  Lucene's 33 English stop words (bm25s's `stopwords="en"`).
- stems: the tokens less their first matching English suffix (a plural, -ing, -ed, -ation ...)
  when three letters or more are left: `uploads`, `uploading` and `uploaded` are `upload`.
- idf(word) = ln(1 + (N - df + 0.5) / (df + 0.5)), rounded to float32.
- weight(word, doc) = idf * tf / (k1 * (1 - b + b * len(doc) / avgdl) + tf), in float64, then
  rounded to float32; a document's score is the float32 sum of its weights over the query's
  words (a word repeated in the query counts again).
"""

from __future__ import annotations

import functools
import math
import re
import struct
from collections import Counter
from collections.abc import Sequence

K1 = 1.5
B = 0.75
_WORD = re.compile(r"(?u)\b\w\w+\b")
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "if",
        "in",
        "into",
        "is",
        "it",
        "no",
        "not",
        "of",
        "on",
        "or",
        "such",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "they",
        "this",
        "to",
        "was",
        "will",
        "with",
    ]
)
_FLOAT32 = struct.Struct("f")


def _float32(value: float) -> float:
    """`value` rounded to the nearest float32 (ties to even), as numpy stores it."""
    rounded: float = _FLOAT32.unpack(_FLOAT32.pack(value))[0]
    return rounded


def tokens(text: str) -> list[str]:
    """Lower-cased words of two letters or more, English stop words removed."""
    return [word for word in _WORD.findall(text.lower()) if word not in STOP_WORDS]


_SUFFIXES = ("ations", "ation", "ments", "ment", "ings", "ing", "ness", "ies", "ed", "es", "ly", "er", "s")
_LEAST_STEM = 3


# Words repeat across the documents of a ranking and across the rankings of a backtest or a report
# (every analysis replayed ranks the same window): each word is stemmed once. Bounded: a
# stranger's text of distinct words costs memory up to the bound, no more.
@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """`word` without its first matching English suffix, when at least three letters are left."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _LEAST_STEM:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def stems(text: str) -> list[str]:
    """The stems of the tokens of `text`."""
    return [stem(word) for word in tokens(text)]


def scores(corpus: Sequence[Sequence[str]], query: Sequence[str]) -> list[float]:
    """BM25 score of each tokenized document against the query's words; words no document has are
    left out, and with none left every score is 0.0."""
    frequency: Counter[str] = Counter(word for words in corpus for word in set(words))
    wanted = [word for word in query if word in frequency]
    if not wanted:
        return [0.0] * len(corpus)
    average = sum(len(words) for words in corpus) / len(corpus)
    # Only the query's words are weighed: the idf of the others would be computed for nothing.
    idf = {
        word: _float32(math.log(1 + (len(corpus) - frequency[word] + 0.5) / (frequency[word] + 0.5)))
        for word in wanted
    }
    found = []
    for words in corpus:
        norm = K1 * ((1 - B) + B * len(words) / average)
        counts = Counter(words)
        score = 0.0
        for word in wanted:
            tf = counts.get(word)
            if tf:
                score = _float32(score + _float32(idf[word] * (tf / (norm + tf))))
        found.append(score)
    return found
