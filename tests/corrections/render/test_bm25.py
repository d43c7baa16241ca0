"""bench/bm25.py scores exactly as the bm25s library does, so the study's BM25 baseline is the ranking the product ran.

The product dropped bm25s (and numpy, which a cold runner downloaded for it), then BM25 itself for
character n-grams (bench/nearest.py measured both); bm25s stays a test dependency as the
reference. The reference below is the ranking the product ran before pure BM25: bm25s's
tokenizer with English stop words, then `BM25()` (Lucene's variant, float32) indexed and scored.
Scores are compared bit for bit, and the order they give (ties newest first) with them, on every
issue of every world in the repository taken as the analysed issue against all the others, on
the worlds `python -m bench.nearest` studies, and on generated texts full of ties.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import bm25s
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.topic_world import TopicSpec
from bench.topic_world import generate as topic_world
from bench.worlds import WorldSpec
from bench.worlds import generate as bench_world
from corrections.render import bm25
from corrections.render.nearest import issue_text

ROOT = Path(__file__).resolve().parents[3]


def reference_tokens(texts: Sequence[str]) -> list[list[str]]:
    found = bm25s.tokenize(list(texts), lower=True, stopwords="en", return_ids=False, show_progress=False)
    return [list(words) for words in found]


def reference_many(documents: Sequence[str], queries: Sequence[str]) -> list[list[float]]:
    """The ranking's scores as bm25s computed them (corrections/render/nearest.py before the switch),
    for several queries against one corpus (indexed once)."""
    corpus = reference_tokens(documents)
    known = {word for words in corpus for word in words}
    if not known:  # the product asked bm25s nothing then (it cannot index an empty vocabulary)
        return [[0.0] * len(documents) for _ in queries]
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    found = []
    for query in queries:
        wanted = [word for word in reference_tokens([query])[0] if word in known]
        scores = retriever.get_scores(wanted) if wanted else [0.0] * len(documents)
        found.append([float(score) for score in scores])
    return found


def reference(documents: Sequence[str], query: str) -> list[float]:
    return reference_many(documents, [query])[0]


def pure(documents: Sequence[str], query: str) -> list[float]:
    return bm25.scores([bm25.tokens(text) for text in documents], bm25.tokens(query))


def order(scores: Sequence[float]) -> list[int]:
    return sorted(range(len(scores)), key=lambda index: -scores[index])


def world_files() -> list[Path]:
    """Every world file of the repository: the bundled demo and the test worlds."""
    found = [ROOT / "emulator" / "worlds" / "demo.json", ROOT / "tests" / "emulator" / "small_world.json"]
    found += [ROOT / "tests" / "corrections" / "commands" / "quality_world.json"]
    found += sorted(
        path for path in (ROOT / "tests" / "worlds").glob("*.json") if ".expected" not in path.name
    )
    return found


def texts_of(world: dict[str, Any]) -> list[str]:
    return [issue_text(issue.get("title") or "", issue.get("body") or "") for issue in world["issues"]]


def assert_same_ranking(texts: list[str]) -> int:
    """Each text as the analysed issue against the others: same scores, same order. Returns the count."""
    compared = 0
    for index, query in enumerate(texts):
        others = texts[:index] + texts[index + 1 :]
        expected, found = reference(others, query), pure(others, query)
        assert found == expected, f"text {index}: {query[:60]!r}"
        assert order(found) == order(expected)
        compared += 1
    return compared


@pytest.mark.parametrize("path", world_files(), ids=lambda path: path.name)
def test_every_world_of_the_repository_ranks_identically(path: Path) -> None:
    world = json.loads(path.read_text(encoding="utf-8"))
    assert assert_same_ranking(texts_of(world)) == len(world["issues"])


@pytest.mark.parametrize(
    "world",
    [lambda: topic_world(TopicSpec()).world, lambda: bench_world(WorldSpec(issues=150, seed=3))],
    ids=["bench.nearest study world", "bench world"],
)
def test_the_ranking_study_worlds_rank_identically(world: Callable[[], dict[str, Any]]) -> None:
    """The world `python -m bench.nearest` studies (its defaults) and a generated bench world:
    every issue as the query against all of them (one index; the repository's worlds above
    re-index for each query)."""
    texts = texts_of(world())
    expected = reference_many(texts, texts)
    corpus = [bm25.tokens(text) for text in texts]
    for index, query in enumerate(texts):
        found = bm25.scores(corpus, bm25.tokens(query))
        assert found == expected[index], f"text {index}: {query[:60]!r}"
        assert order(found) == order(expected[index])


WORDS = st.sampled_from(
    ["disk", "full", "sync", "windows", "path", "the", "a", "Upload", "upload", "é", "x1"]
)
TEXT = st.lists(WORDS, max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(documents=st.lists(TEXT, min_size=1, max_size=8), query=TEXT)
def test_generated_texts_with_ties_rank_identically(documents: list[str], query: str) -> None:
    expected, found = reference(documents, query), pure(documents, query)
    assert found == expected
    assert order(found) == order(expected)


def test_tokens_are_bm25s_tokens() -> None:
    text = "The DISK is full: C:\\Users\\ünï a b2 it's 42 x and_then"
    expected = bm25s.tokenize([text], lower=True, stopwords="en", return_ids=False, show_progress=False)
    assert bm25.tokens(text) == list(expected[0])
