"""Seeded worlds for the benchmark (docs/world-format.md), from 1,000 to 100,000 issues.

Deterministic: the same `WorldSpec` always gives the same world. The mix is what a repository
with a triage assistant looks like: most issues have no analysis (older ones predate the
assistant), analyses carry label corrections, undone corrections, duplicate notices of every
outcome, 👎 from pushers and others; a few timelines run past 100 items and a few analyses have
more than 100 reactions.

So that the GraphQL reader (issues by updatedAt) and the REST reader (newest comments) see the
same window, every analyzed issue ends with a comment, and each issue's activity stays within a
few hours of its creation (docs/performance.md, "Two windows").
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.kit.world import (
    ASSISTANT,
    TIME,
    Item,
    closed,
    comment,
    labeled,
    marked,
    marker,
    place,
    placed_issue,
    reaction,
    reopened,
    unlabeled,
    world,
)

DUPLICATE_LABEL = "possible-duplicate"
END = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
ISSUE_SPACING_S = 900  # one new issue every 15 minutes
VOCABULARY = ("bug", "crash", "enhancement", "documentation", "question", "performance", "config")
OTHER_LABELS = ("needs-triage", "good first issue", "help wanted")
PUSHERS = ("alice", "bob", "mia", "noor")
TRIAGERS = ("carol", "dev")
MAINTAINERS = PUSHERS + TRIAGERS
BOTS = ("ci-bot", "dependabot")
LABELS_MD = (
    "# Labels the triage assistant may use\n\n"
    + "".join(f"- `{name}`: {name} issues\n" for name in VOCABULARY)
    + f"- `{DUPLICATE_LABEL}`: the assistant thinks another issue covers this\n\n"
    "Labels such as `needs-triage` are set by ci-bot and are not for the assistant.\n"
)
LEARNINGS = "".join(
    json.dumps(
        {
            "v": 1,
            "id": f"l_{index:04x}",
            "scope": "repo",
            "kind": "note",
            "text": text,
            "paths": [],
            "category": None,
            "source": {"issue": 1, "comment": 1},
            "createdAt": "2026-01-01T00:00:00Z",
            "updatedAt": "2026-01-01T00:00:00Z",
            "status": "active",
        }
    )
    + "\n"
    for index, text in enumerate(
        ["Crashes on start are usually config problems.", "Windows path issues are `config`."]
    )
)

# Scenarios of an analyzed issue and their weights.
SCENARIOS = {
    "plain": 30,
    "removed": 14,
    "added": 7,
    "undone_removal": 6,
    "undone_addition": 4,
    "reapplied": 3,
    "bot_churn": 4,
    "dup_closed": 5,
    "dup_marked": 2,
    "dup_reopened": 2,
    "dup_reporter": 5,
    "dup_command": 3,
    "dup_unlabeled": 3,
    "dup_open": 4,
    "follow_up": 4,
    "bad_marker": 1,
}


@dataclass(frozen=True)
class WorldSpec:
    """What to generate: size, seed and the share of issues the assistant analyzed."""

    issues: int = 1_000
    seed: int = 7
    assistant_share: float = 0.3  # the newest share of issues came after the assistant was installed
    analyzed: float = 0.5  # of those, analyzed (the workflow skips some)
    thumbs_down: float = 0.15  # analyses with at least one 👎
    long_timelines: int = 3  # issues with more than 100 timeline items
    long_in_window: bool = True  # one of them among the newest analyzed issues
    big_reactions: int = 3  # analyses with more than 100 reactions (one among the newest)
    reporters: int = 2_000  # size of the pool of reporters
    outsider_thumbs_down: bool = True  # 👎 also from people who did nothing else on the issue
    body_chars: int = 0  # issue bodies of this many characters (0: one short line)
    sweep: int = 0  # old issues (no analysis) a bot relabels after all other activity
    spacing_s: int = ISSUE_SPACING_S  # seconds between two new issues


class _Timeline:
    """One issue's items, at least a minute apart, with world-unique times and comment ids."""

    def __init__(self, world: _Builder, number: int, created: datetime) -> None:
        self.world = world
        self.number = number
        self.now = created
        self.items: list[dict[str, Any]] = []

    def _at(self, minutes: int, seconds: int = 0) -> str:
        step = timedelta(minutes=minutes, seconds=seconds) if seconds else timedelta(minutes=max(1, minutes))
        self.now = self.world.unique(self.now + step)
        return self.now.strftime(TIME)

    def comment(self, author: str | None, body: str, minutes: int = 5) -> Item:
        item = place(comment(author, body), self._at(minutes), self.world.next_comment_id())
        self.items.append(item)
        return item

    def add(self, item: Item, minutes: int = 5, seconds: int = 0) -> None:
        """A label change or an event (an item of tests/kit/world.py), `minutes` after the last."""
        self.items.append(place(item, self._at(minutes, seconds)))

    def reactions(self, users: list[str | None], content: str = "THUMBS_DOWN") -> list[Item]:
        """Reactions a second apart from now; they do not move the issue's updatedAt or the clock."""
        return [
            reaction(user, content, (self.now + timedelta(seconds=1 + index)).strftime(TIME))
            for index, user in enumerate(users)
        ]


def analysis_body(kind: str, labels: list[str], duplicate_of: int | None) -> str:
    """The assistant's comment with its hidden marker."""
    words = f"Looks like {', '.join(labels) or 'nothing to label'}."
    if duplicate_of is not None:
        words += f" Possibly a duplicate of #{duplicate_of}."
    return f"{words}\n\n{marker(kind, labels, duplicate_of)}"


class _Builder:
    """Builds one world; state shared by the issues (ids, the set of taken seconds)."""

    def __init__(self, spec: WorldSpec) -> None:
        self.spec = spec
        self.random = random.Random(spec.seed)  # noqa: S311 - seeded test data, no secret
        self.comment_id = 2_600_000_000  # real comment ids are above 2^31
        self.taken: set[datetime] = set()

    def unique(self, moment: datetime) -> datetime:
        """The first free second at or after `moment`: no two items share a time."""
        while moment in self.taken:
            moment += timedelta(seconds=1)
        self.taken.add(moment)
        return moment

    def next_comment_id(self) -> int:
        self.comment_id += 1
        return self.comment_id

    def reporter(self) -> str:
        return f"user{self.random.randrange(self.spec.reporters):04d}"

    def created(self, number: int) -> datetime:
        return END - timedelta(seconds=(self.spec.issues - number) * self.spec.spacing_s)

    def world(self) -> dict[str, Any]:
        spec = self.spec
        first_analyzed = int(spec.issues * (1 - spec.assistant_share)) + 1
        chooser = random.Random(spec.seed + 1)  # noqa: S311 - seeded test data
        analyzed = [n for n in range(first_analyzed, spec.issues + 1) if chooser.random() < spec.analyzed]
        newest = analyzed[-40:]
        long_ones = set(
            chooser.sample(range(1, first_analyzed), min(spec.long_timelines, first_analyzed - 1))
        )
        if spec.long_in_window and newest:
            long_ones.add(newest[-7])
        big = set(chooser.sample(analyzed[:-60], min(spec.big_reactions, max(0, len(analyzed) - 60))))
        if spec.big_reactions and newest:
            big.add(newest[-12])
        analyzed_set = set(analyzed)
        issues = []
        for number in range(1, spec.issues + 1):
            if number in analyzed_set:
                issues.append(self.analyzed_issue(number, number in long_ones, number in big))
            else:
                issues.append(self.plain_issue(number, number in long_ones))
        self._sweep(issues[: min(spec.sweep, first_analyzed - 1)])
        return world(
            "octo",
            "bench",
            users={ASSISTANT: "Bot", **dict.fromkeys(BOTS, "Bot")},
            permissions={
                **dict.fromkeys(PUSHERS[:1], "ADMIN"),
                PUSHERS[1]: "WRITE",
                PUSHERS[2]: "MAINTAIN",
                PUSHERS[3]: "WRITE",
                **dict.fromkeys(TRIAGERS, "TRIAGE"),
            },
            files={
                "main": {
                    ".github/assistant/labels.md": LABELS_MD,
                    ".github/assistant/learnings.jsonl": LEARNINGS,
                }
            },
            issues=issues,
            generator={"spec": spec.__dict__, "note": "bench.worlds"},
        )

    def _issue(self, number: int, timeline: _Timeline, reporter: str) -> Item:
        title = f"Issue {number}: {self.random.choice(['crash', 'slow start', 'docs typo', 'config'])}"
        created = self.created(number).strftime(TIME)
        return placed_issue(number, title, reporter, created, self.body(number), timeline.items)

    def _sweep(self, swept: list[dict[str, Any]]) -> None:
        """A bot relabels old issues after everything else (a label rename, a project sweep): they
        become the most recently updated issues, ahead of every analysed one."""
        moment = END + timedelta(days=1)  # after every issue's activity (hours at most)
        for issue in swept:
            at = self.unique(moment).strftime(TIME)
            issue["timeline"].append(place(labeled(BOTS[1], OTHER_LABELS[2]), at))

    def body(self, number: int) -> str:
        """The issue's text: one line, or `body_chars` characters of a long report."""
        line = "Steps to reproduce: run it."
        if not self.spec.body_chars:
            return line
        text = f"{line} Log of #{number}:\n" + "frame 0x00ff in sync_engine.c\n" * (
            self.spec.body_chars // 30 + 1
        )
        return text[: self.spec.body_chars]

    def plain_issue(self, number: int, long: bool) -> dict[str, Any]:
        """An issue without an analysis: a few comments, labels, maybe closed."""
        rng = self.random
        reporter = self.reporter()
        line = _Timeline(self, number, self.created(number))
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            what = rng.random()
            if what < 0.5:
                line.comment(
                    rng.choice((reporter, self.reporter(), *MAINTAINERS)), "Same here.", rng.randint(5, 60)
                )
            elif what < 0.8:
                line.add(labeled(rng.choice(MAINTAINERS), rng.choice(VOCABULARY)), rng.randint(5, 60))
            else:
                line.add(closed(rng.choice(MAINTAINERS)), rng.randint(5, 60))
                break
        if long:
            self._churn(line, 130)
        return self._issue(number, line, reporter)

    def _churn(self, line: _Timeline, count: int) -> None:
        """A bot flipping a label that is not in the vocabulary: a long timeline, no correction."""
        for index in range(count):
            line.add((labeled if index % 2 == 0 else unlabeled)(BOTS[0], OTHER_LABELS[0]), 0, seconds=7)

    def analyzed_issue(self, number: int, long: bool, big: bool) -> dict[str, Any]:
        """An issue with a first analysis, one scenario of correction, and a final comment."""
        rng = self.random
        reporter = self.reporter()
        maintainer = rng.choice(MAINTAINERS)
        line = _Timeline(self, number, self.created(number))
        scenario = rng.choices(list(SCENARIOS), weights=list(SCENARIOS.values()))[0]
        proposed = rng.sample(VOCABULARY, rng.choice((1, 1, 2)))
        duplicate_of = rng.randint(1, number - 1) if scenario.startswith("dup_") and number > 1 else None
        if scenario == "bad_marker":
            line.comment(ASSISTANT, "Looks like a bug.\n\n<!-- assistant:analysis {v: 1, kind: first} -->", 2)
        analysis = line.comment(ASSISTANT, analysis_body("first", proposed, duplicate_of), 3)
        for name in proposed:
            line.add(labeled(ASSISTANT, name), 1)
        if duplicate_of is not None:
            line.add(labeled(ASSISTANT, DUPLICATE_LABEL), 1)
        other = rng.choice([name for name in VOCABULARY if name not in proposed])
        if scenario == "removed":
            line.add(unlabeled(maintainer, proposed[0]), rng.randint(3, 15))
            line.add(labeled(maintainer, other), 1)
        elif scenario == "added":
            line.add(labeled(maintainer, other), rng.randint(3, 15))
        elif scenario == "undone_removal":
            line.add(unlabeled(maintainer, proposed[0]), rng.randint(3, 15))
            line.add(labeled(rng.choice(MAINTAINERS), proposed[0]), rng.randint(2, 10))
        elif scenario == "undone_addition":
            line.add(labeled(maintainer, other), rng.randint(3, 15))
            line.add(unlabeled(maintainer, other), rng.randint(2, 10))
        elif scenario == "reapplied":
            line.add(unlabeled(maintainer, proposed[0]), rng.randint(3, 15))
            line.add(labeled(ASSISTANT, proposed[0]), 2)
        elif scenario == "bot_churn":
            line.add(unlabeled(BOTS[0], proposed[0]), 5)
            line.add(labeled(BOTS[1], other), 5)
        elif scenario == "dup_closed":
            line.add(closed(maintainer, "DUPLICATE"), rng.randint(3, 15))
        elif scenario == "dup_marked":
            line.add(marked(maintainer, duplicate_of or 1), rng.randint(3, 15))
        elif scenario == "dup_reopened":
            line.add(closed(maintainer, "DUPLICATE"), rng.randint(3, 12))
            line.add(reopened(maintainer), rng.randint(3, 12))
        elif scenario == "dup_reporter":
            line.comment(reporter, "This is a different problem: mine happens on start.", rng.randint(3, 15))
        elif scenario == "dup_command":
            line.comment(maintainer, "Not the same.\n/assistant not-duplicate", rng.randint(3, 15))
        elif scenario == "dup_unlabeled":
            line.add(unlabeled(maintainer, DUPLICATE_LABEL), rng.randint(3, 15))
        elif scenario == "follow_up":
            line.comment(reporter, "More details: it happens on Windows only.", rng.randint(3, 12))
            line.comment(ASSISTANT, analysis_body("follow-up", [other], None), 3)
            line.add(labeled(maintainer, other), rng.randint(2, 10))
        elif scenario == "plain" and rng.random() < 0.5:
            line.comment(reporter, "Thanks, happy to test a fix.", rng.randint(3, 15))
        if rng.random() < self.spec.thumbs_down or big:
            analysis["reactions"] = self._reactions(line, reporter, big)
        if long:
            self._churn(line, 120)
        if rng.random() < 0.3 and duplicate_of is None:
            line.add(closed(maintainer), rng.randint(3, 12))
        # The newest activity of an analyzed issue is a comment (the two readers' windows agree);
        # a maintainer's or a bot's, so it never changes a duplicate notice's outcome.
        author = rng.choice((maintainer, BOTS[0]))
        line.comment(author, "Triaged." if author == maintainer else "CI: reproduced.", rng.randint(2, 10))
        return self._issue(number, line, reporter)

    def _reactions(self, line: _Timeline, reporter: str, big: bool) -> list[dict[str, Any]]:
        rng = self.random
        down: list[str | None] = rng.sample(list(PUSHERS), rng.choice((0, 1, 1, 2)))
        others: list[str | None] = [*TRIAGERS, BOTS[0], None]
        if self.spec.outsider_thumbs_down:
            others += [reporter, self.reporter()]
        down += rng.sample(others, rng.choice((0, 1, 2)))
        if not down:
            down = [rng.choice(PUSHERS)]
        found = line.reactions(list(dict.fromkeys(down)))
        if big:
            fans = [f"fan{index:03d}" for index in range(rng.randint(101, 160))]
            found += line.reactions(list(fans), rng.choice(("THUMBS_UP", "HEART", "EYES")))
        return found


def generate(spec: WorldSpec) -> dict[str, Any]:
    """The world of `spec`, as a dict in the world format."""
    return _Builder(spec).world()
