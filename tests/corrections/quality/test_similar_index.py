"""The ranking index (corrections/quality/similar_index.py) against the ranking it replaces: the same
scores bit for bit and the same nearest issues, on random worlds with many ties.

The witness is the brute force the recurrences used before: every candidate's text ranked from
scratch by `nearest.similarity` for every analysis (`_similar_before_brute`, `_nearest_shown_brute`).
"""

from __future__ import annotations

import math
import operator
import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from corrections.quality.as_of import correct_as_of, read_as_of
from corrections.quality.norm_bounds import NormBounds
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


def _brute_order(texts: list[str], query: str) -> list[int]:
    scores = similarity(texts, query)
    return sorted(range(len(texts)), key=lambda index: -scores[index])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("first", "rare"), [(1, 0), (2, 2), (64, 32)])
def test_the_lazy_order_is_the_order_of_the_scores(seed: int, first: int, rare: int) -> None:
    """`Ranking.order` (n-gram scores bounded, few computed) against every score computed, on sets
    that grow one at a time (the walk's), shrink and change, and with a query often one of them."""
    rng = random.Random(seed)
    texts = [_text(rng, rng.randint(0, 12)) for _ in range(160)]
    features = [Features.of(text) for text in texts]
    ranking = Ranking(first=first, rare=rare)
    chosen = rng.sample(range(len(texts)), 20)
    for step in range(40):
        if step % 10 == 9:
            chosen = rng.sample(range(len(texts)), rng.randint(1, len(texts)))
        elif step % 3 == 2:
            for _ in range(min(3, len(chosen) - 1)):
                chosen.pop(rng.randrange(len(chosen)))
        else:
            chosen += [index for index in rng.sample(range(len(texts)), 2) if index not in chosen]
        query = texts[rng.choice(chosen)] if rng.random() < 0.7 else _text(rng, rng.randint(0, 10))
        expected = _brute_order([texts[index] for index in chosen], query)
        order = ranking.order({index: features[index] for index in chosen}, Features.of(query))
        if step % 2:  # a caller that stops early, as the recurrences do
            assert [next(order, None) for _ in range(5)] == (expected[:5] + [None] * 5)[:5]
        else:
            assert list(order) == expected


def test_the_lazy_order_leaves_most_scores_uncomputed(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the bounds are for: the first places of a large ranking without every n-gram score."""
    rng = random.Random(3)
    texts = [f"Issue {number}: {rng.choice(WORDS)}\nSteps to reproduce: run it." for number in range(1, 801)]
    features = {index: Features.of(text) for index, text in enumerate(texts)}
    computed: list[int] = []
    score = Ranking._score

    def counted(doc: Features, norm: float, weights: object) -> float:
        computed.append(1)
        return score(doc, norm, weights)  # type: ignore[arg-type]

    monkeypatch.setattr(Ranking, "_score", staticmethod(counted))
    ranking = Ranking()
    for size in range(700, 800, 10):
        query = f"Issue {size + 5}: {rng.choice(WORDS)}\nSteps to reproduce: run it."
        documents = {index: features[index] for index in range(size)}
        order = ranking.order(documents, Features.of(query))
        assert [next(order) for _ in range(5)] == _brute_order(texts[:size], query)[:5]
    assert len(computed) < 10 * 700 / 4, len(computed)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rare", [0, 2, 32])
def test_a_norm_is_never_below_its_bound(seed: int, rare: int) -> None:
    """NormBounds against every candidate's norm computed as ngrams.scores does, after each candidate
    that joins or leaves: rare words (one text each, then a twin), common ones, texts without pieces."""
    rng = random.Random(seed)
    words = [f"w{index}x" for index in range(30)]
    texts = [
        " ".join(rng.choice(words[: rng.randint(1, 30)]) for _ in range(rng.randint(0, 6))) for _ in range(80)
    ]
    features = [Features.of(text) for text in texts]
    bounds, df, members = NormBounds(rare), Counter[str](), set[int]()
    checked = 0
    for _ in range(300):
        key = rng.randrange(len(texts))
        if key in members and rng.random() < 0.4:
            members.discard(key)
            bounds.leave(key, features[key].piece_keys)
            df.subtract(features[key].piece_keys)
        elif key not in members:
            bounds.join(key, features[key].piece_keys, df)
            members.add(key)
            df.update(features[key].piece_keys)
        total, ordered = len(members), sorted(members)
        lows = bounds.lowers(ordered, [features[member].count_norm for member in ordered], total)
        # Each piece's idf over the members, once a step (each norm below uses it).
        idf = {piece: math.log((1 + total) / (1 + times)) + 1 for piece, times in df.items()}
        for member, low in zip(ordered, lows, strict=True):
            doc = features[member]
            norm = math.hypot(*map(operator.mul, doc.pieces.values(), map(idf.__getitem__, doc.pieces)))
            if not low:
                bounds.remember(member, norm, total)
            else:
                assert low <= norm
                checked += 1
    assert checked > 1_000
