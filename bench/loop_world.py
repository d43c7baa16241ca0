"""The loop's repository: issues whose right labels are known, arriving over simulated weeks, and a
scripted maintainer who corrects an analysis as a person would.

Six topics, each with a keyword in its titles (what bench/stand_ins.py reads) and the labels the
maintainers want (the truth). A "flaky" issue's reporter mentions the first flaky issue, which is
no duplicate of it: the maintainer objects to a duplicate notice naming it.

`history_world` writes a world file in which a given model already analysed every issue and the
maintainer already corrected it (for the backtest); `bench/loop.py` runs the same arrivals live,
through the example workflow, on the emulator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from corrections.rules.analysis_marker import analysis_marker
from tests.kit.world import ASSISTANT, Item, comment, iso, labeled, place, placed_issue, unlabeled, world

OWNER, NAME = "octo", "loop"
MAINTAINER = "mara"
REPORTERS = ("kwame-o", "li-na", "sam-r", "ines-p", "tomas-k")
LABELS_FILE = ".github/assistant/labels.md"
LABELS_MD = (
    "# Labels\n\n- `bug`: something does not work\n- `performance`: slow, or uses too much\n"
    "- `question`: a usage question\n- `enhancement`: a new feature\n- `docs`: the documentation\n"
    "- `possible-duplicate`: the assistant thinks another issue covers this\n"
)
START = datetime(2026, 9, 7, 9, 0, tzinfo=UTC)  # a Monday


@dataclass(frozen=True)
class Topic:
    keyword: str
    titles: tuple[str, ...]
    truth: tuple[str, ...]


TOPICS = (
    Topic("crash", ("Crash when opening {}", "Crash on exit after {}"), ("bug",)),
    Topic("slow", ("Slow sync of {}", "Slow start with {}"), ("bug",)),
    Topic("how", ("How do I exclude {}?", "How to configure {}?"), ("question",)),
    Topic("support", ("Add support for {}", "Support {} in the CLI"), ("enhancement",)),
    Topic("typo", ("Typo in the {} page", "Typo in {} help"), ("docs",)),
    Topic("flaky", ("Flaky upload of {}", "Flaky test around {}"), ("bug",)),
)
THINGS = ("photos", "large folders", "symlinks", "hidden files", "S3 buckets", "profiles", "proxies", "zstd")


@dataclass(frozen=True)
class Arrival:
    """One issue as its reporter opens it, and what the maintainers want on it."""

    number: int
    at: datetime
    week: int  # 1-based
    title: str
    body: str
    author: str
    truth: tuple[str, ...]


def arrivals(weeks: int, per_week: int, seed: int) -> list[Arrival]:
    """`per_week` issues a week, topics in turn (shuffled per week), numbered from 1."""
    rng = random.Random(seed)  # noqa: S311 - seeded test data, no secret
    found: list[Arrival] = []
    first_flaky: int | None = None
    for week in range(weeks):
        topics = [TOPICS[i % len(TOPICS)] for i in range(per_week)]
        rng.shuffle(topics)
        for slot, topic in enumerate(topics):
            number = len(found) + 1
            at = START + timedelta(
                weeks=week, hours=slot * (120 // max(1, per_week)), minutes=rng.randrange(50)
            )
            body = f"Seen on version 2.{rng.randrange(9)}."
            if topic.keyword == "flaky":
                if first_flaky is None:
                    first_flaky = number
                else:
                    body += f" Maybe like #{first_flaky}?"
            title = rng.choice(topic.titles).format(rng.choice(THINGS))
            found.append(Arrival(number, at, week + 1, title, body, rng.choice(REPORTERS), topic.truth))
    return found


@dataclass(frozen=True)
class Fix:
    """What the maintainer does to one analysis: labels to remove and add, and an objection."""

    remove: tuple[str, ...]
    add: tuple[str, ...]
    object_to_duplicate: bool


def fix(labels: Sequence[str], duplicate_of: int | None, arrival: Arrival) -> Fix:
    """Remove the wrong labels, add the missing ones, object to any duplicate notice (none is one)."""
    return Fix(
        remove=tuple(sorted(set(labels) - set(arrival.truth))),
        add=tuple(sorted(set(arrival.truth) - set(labels))),
        object_to_duplicate=duplicate_of is not None,
    )


NOT_DUPLICATE = "/assistant not-duplicate"
Model = Callable[[Arrival], tuple[list[str], int | None]]


def _issue_json(arrival: Arrival) -> dict[str, Any]:
    return {"number": arrival.number, "title": arrival.title, "body": arrival.body}


def blind_model(arrival: Arrival) -> tuple[list[str], int | None]:
    """bench/stand_ins.py's blind answer, without a prompt."""
    from bench.stand_ins import blind

    return blind(_issue_json(arrival))


def _comment(comment_id: int, author: str, body: str, at: datetime) -> Item:
    return {**place(comment(author, body), iso(at), comment_id), "reactions": []}


def history_world(found: Sequence[Arrival], model: Model = blind_model) -> dict[str, Any]:
    """A world in which `model` analysed each issue (marker and labels, by the assistant) and the
    maintainer corrected it an hour later."""
    issues: list[Item] = []
    comment_id = 3_200_000_000
    for arrival in found:
        labels, duplicate = model(arrival)
        comment_id += 1
        marker = analysis_marker(labels, duplicate)
        analysed = arrival.at + timedelta(minutes=3)
        timeline = [_comment(comment_id, ASSISTANT, f"Analysis.\n\n{marker}", analysed)]
        timeline += [
            place(labeled(ASSISTANT, name), iso(analysed + timedelta(seconds=10 + i)))
            for i, name in enumerate(labels)
        ]
        done = fix(labels, duplicate, arrival)
        later = analysed + timedelta(hours=1)
        timeline += [
            place(unlabeled(MAINTAINER, name), iso(later + timedelta(seconds=i)))
            for i, name in enumerate(done.remove)
        ]
        timeline += [
            place(labeled(MAINTAINER, name), iso(later + timedelta(seconds=30 + i)))
            for i, name in enumerate(done.add)
        ]
        if done.object_to_duplicate:
            comment_id += 1
            timeline.append(_comment(comment_id, MAINTAINER, NOT_DUPLICATE, later + timedelta(minutes=1)))
        issues.append(
            placed_issue(
                arrival.number, arrival.title, arrival.author, iso(arrival.at), arrival.body, timeline
            )
        )
    return base_world(issues)


def base_world(issues: list[Item]) -> dict[str, Any]:
    """The repository, its people and labels.md, with these issues."""
    return world(
        OWNER,
        NAME,
        note="The loop's repository (bench/loop_world.py): issues with known right labels.",
        users={ASSISTANT: "Bot"},
        permissions={MAINTAINER: "ADMIN"},
        files={"main": {LABELS_FILE: LABELS_MD}},
        issues=issues,
    )
