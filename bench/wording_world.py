"""A seeded 12-week history of recurring mistakes, and new issues worded the way people write.

The history (bench/wording_texts.py): 100 analysed issues over 12 weeks, six of them corrected
issues in Chinese, Japanese, German or Spanish. Seven kinds of mistake
recur, each the same decision by a maintainer (the assistant put `bug`, the maintainer put
`platform` instead, ...); two of them are quiet (Windows paths, docs) and come up only in the
first five weeks, so they are older than the 30 most recent analyses. Ten one-off corrections and
the analyses maintainers kept fill the rest. Every issue's activity stays within an hour of its
creation, so the window by activity is the window by creation.

The new issues (`new_issues`) are not in the world: each is the issue being analysed, with its
kind and its wording (a paraphrase, a short title, German, Spanish, French, a stack trace,
Chinese, Japanese). The line that teaches it is any correction of its kind. Which kind an issue
has is decided here, never by a ranking under study (bench/nearest.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.wording_texts import COMMON, HISTORY, HISTORY_OTHER, KEPT, KINDS, NEW, ONE_OFF, WORDINGS
from tests.kit.world import ASSISTANT, comment, iso, labeled, marker, place, placed_issue, unlabeled, world

MAINTAINER = "mara"
START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
WEEKS = 12
QUIET_WEEKS = 5  # a quiet kind comes up only in these first weeks
VOCABULARY = ("bug", "config", "documentation", "network", "performance", "platform", "question", "security")
LABELS_MD = "# Labels\n\n" + "".join(f"- `{name}`: {name} issues\n" for name in VOCABULARY)


@dataclass(frozen=True)
class WordingSpec:
    """What to generate: corrections per recurring kind (quiet and other), kept analyses, a seed."""

    seed: int = 31
    per_kind: int = 9
    per_quiet_kind: int = 8
    kept: int = 23


@dataclass(frozen=True)
class NewIssue:
    """An issue being analysed: its kind (the answer) and how it is worded."""

    kind: str
    wording: str
    title: str
    body: str


@dataclass(frozen=True)
class WordingWorld:
    """The world (docs/world-format.md) and the kind of each issue (None: a one-off or kept)."""

    world: dict[str, Any]
    kind: dict[int, str | None]


def new_issues() -> list[NewIssue]:
    """Every new issue of bench/wording_texts.py, kind by kind, wording by wording (112)."""
    return [
        NewIssue(kind, wording, title, body)
        for kind, wordings in NEW.items()
        for wording in WORDINGS
        for title, body in wordings[wording]
    ]


def _body(rng: random.Random, sentences: tuple[str, ...]) -> str:
    chosen = rng.sample(sentences, rng.randint(2, 3)) + rng.sample(COMMON, rng.randint(1, 2))
    rng.shuffle(chosen)
    return " ".join(chosen)


def _planned(rng: random.Random, spec: WordingSpec) -> list[tuple[float, str | None, str, str, bool]]:
    """(day, kind, title, body, corrected) for each analysed issue, in no order yet."""
    planned: list[tuple[float, str | None, str, str, bool]] = []
    for kind, (_, _, quiet) in KINDS.items():
        titles, sentences = HISTORY[kind]
        count = spec.per_quiet_kind if quiet else spec.per_kind
        last_day = QUIET_WEEKS * 7 if quiet else WEEKS * 7
        order = rng.sample(titles, len(titles))
        for index in range(count):
            title = order[index % len(order)]
            planned.append((rng.uniform(0, last_day), kind, title, _body(rng, sentences), True))
    for kind, title, body in HISTORY_OTHER:
        last_day = QUIET_WEEKS * 7 if KINDS[kind][2] else WEEKS * 7
        planned.append((rng.uniform(0, last_day), kind, title, body, True))
    for title, body in ONE_OFF:
        planned.append((rng.uniform(0, WEEKS * 7), None, title, f"{body} {rng.choice(COMMON)}", True))
    for index in range(spec.kept):
        title, body = KEPT[index % len(KEPT)]
        planned.append((rng.uniform(0, WEEKS * 7), None, title, f"{body} {rng.choice(COMMON)}", False))
    return planned


def generate(spec: WordingSpec = WordingSpec()) -> WordingWorld:
    """The world of `spec`: issues numbered by creation, each analysed two minutes after it was
    opened; a correction (the wrong label removed, the right one added) 40 minutes later."""
    rng = random.Random(spec.seed)  # noqa: S311 - seeded study data, no secret
    planned = sorted(_planned(rng, spec), key=lambda item: item[0])
    kinds: dict[int, str | None] = {}
    issues: list[dict[str, Any]] = []
    comment_id = 3_100_000_000  # real comment ids are above 2**31
    for number, (day, kind, title, body, corrected) in enumerate(planned, 1):
        kinds[number] = kind
        created = START + timedelta(days=day)
        wrong, right = KINDS[kind][:2] if kind else rng.sample(VOCABULARY, 2)
        put = wrong if corrected else right
        comment_id += 7
        timeline = [
            place(
                comment(ASSISTANT, f"Looks like {put}.\n\n{marker('first', [put], None)}"),
                iso(created + timedelta(minutes=2)),
                comment_id,
            ),
            place(labeled(ASSISTANT, put), iso(created + timedelta(minutes=3))),
        ]
        if corrected:
            timeline.append(place(unlabeled(MAINTAINER, wrong), iso(created + timedelta(minutes=40))))
            timeline.append(place(labeled(MAINTAINER, right), iso(created + timedelta(minutes=41))))
        issues.append(placed_issue(number, title, f"reporter{number % 41}", iso(created), body, timeline))
    found = world(
        "octo",
        "wording",
        users={ASSISTANT: "Bot"},
        permissions={MAINTAINER: "ADMIN"},
        files={"main": {".github/assistant/labels.md": LABELS_MD}},
        issues=issues,
    )
    return WordingWorld(world=found, kind=kinds)
