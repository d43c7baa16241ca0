"""The rankers bench/nearest.py compares: each scores documents against a query, higher is nearer.

- `bm25`: whole words (corrections/render/bm25.py: Lucene's BM25, English stop words), the
  product's ranker until the wording study.
- `bm25_stems`: the same on light English stems (a plural, -ing, -ed, -ation ... cut off).
- `ngrams`: character 3- to 5-grams with TF-IDF, CJK runs apart from Latin letters and cut like
  any word (corrections/render/ngrams.py).
- `ngrams_cjk_pairs`: the same with CJK runs as pairs of characters (Lucene's CJK analyser).
- `ngrams_cjk_chars`: the same with CJK runs as their characters and pairs.
- `fusion`: reciprocal rank fusion (k = 60) of `bm25_stems` and `ngrams`: the product's ranker
  (`corrections.render.nearest.similarity`).
- `wordllama`: a static embedding (WordLlama, 256 dimensions, weights inside the PyPI package),
  only where the package is installed; it is not a dependency of the project.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from corrections.render import bm25, nearest, ngrams

Scorer = Callable[[Sequence[str], str], list[float]]


def bm25_words(documents: Sequence[str], query: str) -> list[float]:
    """BM25 on whole words."""
    return bm25.scores([bm25.tokens(text) for text in documents], bm25.tokens(query))


def bm25_stems(documents: Sequence[str], query: str) -> list[float]:
    """BM25 on light stems."""
    return bm25.scores([bm25.stems(text) for text in documents], bm25.stems(query))


@functools.lru_cache(maxsize=8192)
def _cjk_pairs(run: str) -> tuple[str, ...]:
    if ngrams.is_cjk(run):
        return tuple(run[index : index + 2] for index in range(len(run) - 1)) or (run,)
    return ngrams.pieces(run)


@functools.lru_cache(maxsize=8192)
def _cjk_chars_and_pairs(run: str) -> tuple[str, ...]:
    if ngrams.is_cjk(run):
        return (*run, *_cjk_pairs(run))
    return ngrams.pieces(run)


def ngrams_cjk_pairs(documents: Sequence[str], query: str) -> list[float]:
    """Character n-grams, CJK runs as pairs of characters."""
    return ngrams.scores(documents, query, _cjk_pairs)


def ngrams_cjk_chars(documents: Sequence[str], query: str) -> list[float]:
    """Character n-grams, CJK runs as their characters and pairs."""
    return ngrams.scores(documents, query, _cjk_chars_and_pairs)


def wordllama() -> Scorer | None:
    """Cosine similarity of WordLlama embeddings (256 dimensions), or None when the package is not
    installed. Its weights and tokenizer are inside the package; `cache_dir` points there so that
    loading never tries the network (by default it looks for the tokenizer in a cache and downloads)."""
    try:
        import wordllama as package  # type: ignore[import-not-found]
    except ImportError:
        return None
    model: Any = package.WordLlama.load(cache_dir=Path(package.__file__).parent, disable_download=True)

    def scores(documents: Sequence[str], query: str) -> list[float]:
        if not documents:
            return []
        vectors = model.embed(list(documents), norm=True)
        asked = model.embed([query], norm=True)[0]
        return [float(value) for value in vectors @ asked]

    return scores


def candidates(embedding: bool = False) -> dict[str, Scorer]:
    """The rankers of the study by name; the embedding only when asked for and installed."""
    found: dict[str, Scorer] = {
        "bm25": bm25_words,
        "bm25_stems": bm25_stems,
        "ngrams": ngrams.scores,
        "ngrams_cjk_pairs": ngrams_cjk_pairs,
        "ngrams_cjk_chars": ngrams_cjk_chars,
        "fusion": nearest.similarity,
    }
    embedded = wordllama() if embedding else None
    if embedded is not None:
        found["wordllama"] = embedded
    return found
