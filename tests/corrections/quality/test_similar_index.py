"""The ranking index (corrections/quality/similar_index.py) against the ranking it replaces: the same
scores bit for bit and the same nearest issues, on random worlds with many ties.

The witness is the brute force the recurrences used before: every candidate's text ranked from
scratch by `nearest.similarity` for every analysis (`_similar_before_brute`, `_nearest_shown_brute`).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from corrections.quality.as_of import correct_as_of, read_as_of
from corrections.quality.recurrences import nearest_shown, similar_before
from corrections.quality.similar_index import Features, Ranking
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.render.nearest import issue_text, nearest_first, similarity
from corrections.rules.issue import correct
from corrections.rules.models import Actor, IssueCorrection, Permission
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import parse_vocabulary
from tests.corrections.conftest import VOCABULARY, IssueBuilder

SETTINGS = RuleSettings(vocabulary=parse_vocabulary(VOCABULARY))
MAINTAINER = Actor(login="mara")
START = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)
# Few words, so that many texts tie; numbers, inflections, CJK and an empty text besides.
WORDS = ("crash", "crashes", "start", "upload", "uploads", "photo", "slow", "config", "docs", "typo")
EXTRA = ("12", "345", "Zertifikat", "Windows上路径", "timeout", "")
LABELS = ("bug", "docs", "question")


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS + EXTRA) for _ in range(words))


def _similar_before_brute(
    outcome: ReadOutcome, *, number: int, title: str, body: str, moment: datetime, nearest: int = 5
) -> list[IssueCorrection]:
    """The recurrences' similar issues as they were found before the index: ranked from scratch."""
    today = {c.number: c for c in outcome.corrections if c.is_corrected and c.number != number}
    reads = {
        read.issue.number: read
        for read in outcome.window
        if read.issue.number in today and read.first is not None and read.first.at < moment
    }
    candidates = [today[n] for n in reads]
    texts = {r.issue.number: issue_text(r.issue.title, r.issue.body) for r in outcome.window}
    found: list[IssueCorrection] = []
    for candidate in nearest_first(candidates, texts, issue_text(title, body)):
        then = read_as_of(reads[candidate.number], moment, SETTINGS)
        if then is None:
            continue
        line = correct_as_of(then, moment, outcome, SETTINGS)
        if line.is_corrected:
            found.append(line)
            if len(found) >= nearest:
                break
    return found


def _nearest_shown_brute(
    outcome: ReadOutcome, read: IssueRead, context: list[IssueCorrection]
) -> list[IssueCorrection]:
    texts = {r.issue.number: issue_text(r.issue.title, r.issue.body) for r in outcome.window}
    lines = [line for line in context if line.number != read.issue.number]
    return nearest_first(lines, texts, issue_text(read.issue.title, read.issue.body))[:5]


def _world(rng: random.Random, issues: int) -> ReadOutcome:
    builders = []
    for number in range(1, issues + 1):
        builder = IssueBuilder(
            number=number, title=_text(rng, rng.randint(0, 3)), clock=START + timedelta(hours=number)
        )
        builder.analysis(labels=tuple(rng.sample(LABELS, rng.randint(0, 2))))
        for _ in range(rng.randint(0, 3)):
            builder.clock += timedelta(hours=rng.randint(0, 60))
            builder.label(MAINTAINER, rng.choice(LABELS), added=rng.random() < 0.5)
        builders.append(builder)
    built = [b.build().model_copy(update={"body": _text(rng, rng.randint(0, 8))}) for b in builders]
    permissions = {"mara": Permission.ADMIN}
    reads = [
        IssueRead.of(issue, None, 100, SETTINGS)
        for issue in sorted(built, key=lambda i: i.updated_at, reverse=True)
    ]
    corrections = []
    for read in reads:
        assert read.first is not None
        corrections.append(correct(read.issue, read.first, [], SETTINGS, permissions))
    return ReadOutcome(
        repository="octo/r",
        window=tuple(reads),
        corrections=tuple(corrections),
        settings=SETTINGS,
        scan_exhausted=True,
        permissions=permissions,
    )


@pytest.mark.parametrize("seed", range(12))
def test_the_ranking_gives_the_scores_of_the_similarity_it_replaces(seed: int) -> None:
    rng = random.Random(seed)
    texts = [_text(rng, rng.randint(0, 12)) for _ in range(40)]
    features = [Features.of(text) for text in texts]
    ranking = Ranking()
    for _ in range(30):  # sets that grow, shrink and change, as the walk's and the context's do
        chosen = rng.sample(range(len(texts)), rng.randint(1, len(texts)))
        query = _text(rng, rng.randint(0, 10))
        expected = similarity([texts[index] for index in chosen], query)
        assert (
            ranking.similarity({index: features[index] for index in chosen}, Features.of(query)) == expected
        )


@pytest.mark.parametrize("seed", range(10))
def test_the_similar_issues_are_those_the_brute_force_finds(seed: int) -> None:
    rng = random.Random(seed)
    outcome = _world(rng, 45)
    moments = [read.first.at for read in outcome.window if read.first is not None]
    moments += [START + timedelta(hours=rng.randint(0, 200)) for _ in range(10)]
    for moment in moments:
        asked = rng.choice(outcome.window).issue
        title, body = (asked.title, asked.body) if rng.random() < 0.8 else (_text(rng, 3), "")
        number = asked.number if rng.random() < 0.8 else 0
        found = similar_before(
            outcome, number=number, title=title, body=body, moment=moment, settings=SETTINGS
        )
        assert found == _similar_before_brute(outcome, number=number, title=title, body=body, moment=moment)
    lines = [c for c in outcome.corrections if c.is_corrected]
    for read in outcome.window:
        context = rng.sample(lines, rng.randint(0, len(lines)))
        assert nearest_shown(outcome, read, context) == _nearest_shown_brute(outcome, read, context)
