"""The order of the corrections: a maintainer's first, then nearest the issue being analysed
(BM25), ties newest first.

When the budget of a prompt is tight, the lines kept are the first ones, so the corrections of
issues like the one being analysed come first. Similarity is lexical: BM25 (corrections/render/bm25.py:
Lucene's variant, English stop words removed) of each corrected issue's title and the start of
its body against the analysed issue's. The analysed issue's text is only tokenized here, never
rendered. Without it the order is newest first (`ReadOutcome.corrected`). In either order the
issues a maintainer corrected come before those whose only correction is an objection by someone
without triage access (docs/rules.md, "Duplicate notices"): anyone can write that objection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from assistant.untrusted import clean_block
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.render import bm25
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


def similarity(documents: Sequence[str], query: str) -> list[float]:
    """BM25 score of each document against the query; all 0.0 when they share no word."""
    return bm25.scores([bm25.tokens(text) for text in documents], bm25.tokens(query))


def nearest_first(
    corrections: Sequence[IssueCorrection], texts: Mapping[int, str], query: str
) -> list[IssueCorrection]:
    """`corrections` (newest first) reordered by similarity to `query`; ties keep their order."""
    if len(corrections) < 2 or not query.strip():
        return list(corrections)
    scores = similarity([texts.get(c.number, "") for c in corrections], query)
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
