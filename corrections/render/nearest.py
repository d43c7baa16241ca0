"""The order of the corrections: a maintainer's first, then nearest the issue being analysed,
ties newest first.

When the budget of a prompt is tight, the lines kept are the first ones, so the corrections of
issues like the one being analysed come first. Similarity compares each corrected issue's title
and the start of its body with the analysed issue's twice, and fuses the two orders (reciprocal
rank fusion, k = 60): by whole words (BM25 on light English stems, corrections/render/bm25.py)
and by pieces of words (character 3- to 5-gram TF-IDF, corrections/render/ngrams.py), so an issue
is found however it is worded (inflections, compounds, other languages, stack traces, CJK written
without spaces) while exact shared words still count. bench/nearest.py measured the fusion
against each alone and others (docs/corrections.md, "Which lines come first"). The analysed issue's text is only tokenized here, never
rendered. Without it the order is newest first (`ReadOutcome.corrected`). In either order the
issues a maintainer corrected come before those whose only correction is an objection by someone
without triage access (docs/rules.md, "Duplicate notices"): anyone can write that objection.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from assistant.untrusted import clean_block
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.render import bm25, ngrams
from corrections.rules.models import IssueCorrection

# What of an issue takes part in the ranking: its title and the first words of its body. The start
# of an issue is where its subject is, and the bound keeps relevance from being bought with
# length: a body stuffed with thousands of common words weighs as much as its first 100 words.
MAX_TITLE_CHARS = 300
MAX_BODY_WORDS = 100
MAX_BODY_CHARS = 2_000  # read before the words are counted: a megabyte body costs no more


def issue_text(title: str, body: str) -> str:
    """The text of an issue that is ranked: its title, then the first MAX_BODY_WORDS words of its
    body (words split at white space)."""
    words = body[:MAX_BODY_CHARS].split(maxsplit=MAX_BODY_WORDS)[:MAX_BODY_WORDS]
    return clean_block(title[:MAX_TITLE_CHARS]) + "\n" + clean_block(" ".join(words))


# Reciprocal rank fusion's constant: a document's share from one ranking is 1 / (K + its rank).
FUSION_K = 60


def _ranks(values: Sequence[float]) -> list[int]:
    """The 1-based rank of each value, highest first; equal values share the better rank."""
    order = sorted(range(len(values)), key=lambda index: -values[index])
    ranks = [0] * len(values)
    for place, index in enumerate(order, 1):
        previous = order[place - 2] if place > 1 else None
        tied = previous is not None and values[previous] == values[index]
        ranks[index] = ranks[previous] if tied and previous is not None else place
    return ranks


def similarity(documents: Sequence[str], query: str) -> list[float]:
    """How near each document is to the query: the sum over the two rankings (BM25 on stems,
    character n-grams) of 1 / (FUSION_K + rank) where the ranking's score is above 0; all 0.0 when
    they share neither a word nor a piece of one."""
    found = [0.0] * len(documents)
    for values in (
        bm25.scores([bm25.stems(text) for text in documents], bm25.stems(query)),
        ngrams.scores(documents, query),
    ):
        for index, rank in enumerate(_ranks(values)):
            if values[index] > 0:
                found[index] += 1 / (FUSION_K + rank)
    return found


def nearest_first(
    corrections: Sequence[IssueCorrection],
    texts: Mapping[int, str],
    query: str,
    scorer: Callable[[Sequence[str], str], list[float]] = similarity,
) -> list[IssueCorrection]:
    """`corrections` (newest first) reordered by similarity to `query`; ties keep their order.
    `scorer` is the product's `similarity`; bench/nearest.py passes the rankers it compares."""
    if len(corrections) < 2 or not query.strip():
        return list(corrections)
    scores = scorer([texts.get(c.number, "") for c in corrections], query)
    ranked = sorted(range(len(corrections)), key=lambda index: -scores[index])
    return [corrections[index] for index in ranked]


def maintainers_first(corrections: Sequence[IssueCorrection]) -> list[IssueCorrection]:
    """`corrections` with every issue a maintainer corrected before those whose only correction is
    an objection by someone without triage access; each part keeps its order."""
    return [c for c in corrections if c.by_maintainer] + [c for c in corrections if not c.by_maintainer]


def ordered(outcome: ReadOutcome) -> list[IssueCorrection]:
    """The corrected issues in the order of corrections.md and corrections.json (and so of the
    prompt's excerpts): a maintainer's corrections first, each part nearest first or newest first."""
    corrected = outcome.corrected
    analysed = outcome.analysed
    if analysed is None or analysed.title is None:
        return maintainers_first(corrected)
    texts = {read.issue.number: issue_text(read.issue.title, read.issue.body) for read in outcome.read_issues}
    return maintainers_first(nearest_first(corrected, texts, issue_text(analysed.title, analysed.body or "")))


# The kept analyses a context shows beside the corrections: what was right on the nearest issues.
MAX_KEPT = 5


def kept_nearest(outcome: ReadOutcome) -> list[IssueRead]:
    """The window's first analyses that maintainers kept as they were (no correction) and that put
    a label forward, nearest the analysed issue first (newest first without it), at most MAX_KEPT."""
    corrected = {c.number for c in outcome.learned_from if c.is_corrected}
    number = None if outcome.analysed is None else outcome.analysed.number
    kept = [
        read
        for read in outcome.window
        if read.first is not None
        and read.first.labels
        and read.issue.number not in corrected
        and read.issue.number != number
        and any(c.number == read.issue.number for c in outcome.learned_from)
    ]
    analysed = outcome.analysed
    if analysed is None or analysed.title is None or len(kept) < 2:
        return kept[:MAX_KEPT]
    documents = [issue_text(read.issue.title, read.issue.body) for read in kept]
    scores = similarity(documents, issue_text(analysed.title, analysed.body or ""))
    ranked = sorted(range(len(kept)), key=lambda index: -scores[index])
    return [kept[index] for index in ranked][:MAX_KEPT]
