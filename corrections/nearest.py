"""The order of the corrections: nearest the issue being analysed first (BM25), ties newest first.

When the budget of a prompt is tight, the lines kept are the first ones, so the corrections of
issues like the one being analysed come first. Similarity is lexical: BM25 (corrections/bm25.py:
Lucene's variant, English stop words removed) of each corrected issue's title and body against
the analysed issue's title and body. The analysed issue's text is only tokenized here, never
rendered. Without it the order is newest first (`ReadOutcome.corrected`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from assistant.untrusted import clean_block
from corrections import bm25
from corrections.models import IssueCorrection
from corrections.outcome import ReadOutcome

# Characters of a title and of a body that take part in the ranking: a megabyte body costs no
# more than a long one, and the start of an issue is where its subject is.
MAX_TITLE_CHARS = 300
MAX_BODY_CHARS = 4_000


def issue_text(title: str, body: str) -> str:
    """The text of an issue that is ranked: its title, then the start of its body."""
    return clean_block(title[:MAX_TITLE_CHARS]) + "\n" + clean_block(body[:MAX_BODY_CHARS])


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


def ordered(outcome: ReadOutcome) -> list[IssueCorrection]:
    """The corrected issues in the order of corrections.md and corrections.json."""
    corrected = outcome.corrected
    analysed = outcome.analysed
    if analysed is None or analysed.title is None:
        return corrected
    texts = {read.issue.number: issue_text(read.issue.title, read.issue.body) for read in outcome.window}
    return nearest_first(corrected, texts, issue_text(analysed.title, analysed.body or ""))
