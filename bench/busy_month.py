"""A generated busy month: what a repository the assistant serves looks like at full traffic.

`busy_month(BusyMonthSpec())` gives, in the world format (docs/world-format.md): 2,976 issues,
one every 15 minutes (31 days, ending 2026-11-30 12:00 UTC), 90 % of them with a first analysis
(bench/worlds.py's scenarios of correction), 620 pull requests, 206 `/assistant remember`
commands by pushers and 141 learning proposals by the assistant that a pusher accepted with 👍,
spread over the month on issues and pull requests. `BusyMonth.sources` names the 347 accepted
sources (comment ids), so a test of `learnings sync` knows what it must record, and
`first_analyses(month)` how many first analyses a month has, so one of `corrections quality`
knows what it must count.

Deterministic: the same spec gives the same world. Pull requests are numbered after the issues
(numbers share one sequence) and created across the month; their timelines hold the commands and
proposals given there.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bench.worlds import END, ISSUE_SPACING_S, PUSHERS, TRIAGERS, WorldSpec, generate
from learnings.rules.proposals import proposal_comment
from tests.kit.world import ASSISTANT, TIME, comment, place, reaction

AREAS = ("parser", "cache", "cli", "sync", "network", "storage", "docs", "config")
FIRST_ID = 2_700_000_000  # beside bench.worlds' comment ids (2,600,000,001 upwards)


@dataclass(frozen=True)
class BusyMonthSpec:
    """The month's traffic: issues (one every 15 minutes), the analysed share, the write path."""

    issues: int = 2_976
    seed: int = 7
    analysed: float = 0.9
    remember: int = 206  # `/assistant remember` commands by pushers
    proposals: int = 141  # proposals a pusher accepted with 👍
    pull_requests: int = 620
    ignored: int = 40  # commands and 👍 by people without push access: never sources
    spacing_s: int = ISSUE_SPACING_S  # seconds between two new issues


@dataclass(frozen=True)
class Source:
    """One accepted source: the comment and what it records."""

    kind: str  # "remember" or "proposal"
    number: int  # the issue or pull request
    comment: int  # the comment's database id
    at: str  # the comment's time (a proposal's 👍 comes a few minutes later)
    text: str


@dataclass(frozen=True)
class BusyMonth:
    """The world and what it holds."""

    world: dict[str, Any]
    sources: tuple[Source, ...] = field(default=())

    def first_analyses(self, month: str) -> int:
        """First analyses posted in `month` ("YYYY-MM"): the first analysis comment of each issue."""
        return sum(
            1
            for issue in self.world["issues"]
            if (first := _first_analysis_at(issue)) is not None and first.startswith(month)
        )


def _first_analysis_at(issue: dict[str, Any]) -> str | None:
    for item in issue["timeline"]:
        if item["type"] == "comment" and item["author"] == ASSISTANT and '"kind": "first"' in item["body"]:
            return str(item["at"])
    return None


class _Month:
    """Adds the pull requests, commands and proposals to a generated world."""

    def __init__(self, spec: BusyMonthSpec, world: dict[str, Any]) -> None:
        self.spec = spec
        self.world = world
        self.random = random.Random(spec.seed + 26)  # noqa: S311 - seeded test data, no secret
        self.comment_id = FIRST_ID
        self.taken = {item["at"] for issue in world["issues"] for item in issue["timeline"]}
        self.start = END - timedelta(seconds=spec.issues * spec.spacing_s)

    def unique(self, moment: datetime) -> str:
        """The first free second at or after `moment`, as text."""
        while moment.strftime(TIME) in self.taken:
            moment += timedelta(seconds=1)
        text = moment.strftime(TIME)
        self.taken.add(text)
        return text

    def comment(self, thread: dict[str, Any], author: str, body: str) -> dict[str, Any]:
        """A comment a few minutes after the thread's last item (timelines stay in time order)."""
        last = thread["timeline"][-1]["at"] if thread["timeline"] else thread["created_at"]
        moment = datetime.strptime(last, TIME).replace(tzinfo=END.tzinfo)
        self.comment_id += 1
        item = place(
            comment(author, body),
            self.unique(moment + timedelta(minutes=self.random.randint(2, 30))),
            self.comment_id,
        )
        thread["timeline"].append(item)
        return item

    def pull_requests(self) -> list[dict[str, Any]]:
        span = self.spec.issues * self.spec.spacing_s
        found = []
        for index in range(self.spec.pull_requests):
            number = self.spec.issues + 1 + index
            created = self.start + timedelta(seconds=span * index // max(1, self.spec.pull_requests))
            found.append(
                {
                    "number": number,
                    "title": f"Fix {self.random.choice(AREAS)} handling ({number})",
                    "body": "Fixes a bug.",
                    "author": self.random.choice(PUSHERS + TRIAGERS),
                    "created_at": self.unique(created),
                    "timeline": [],
                    "base": "main",
                    "head": f"fix-{number}",
                    "merged": self.random.random() < 0.7,
                }
            )
        return found

    def build(self) -> BusyMonth:
        pulls = self.pull_requests()
        threads = self.world["issues"] + pulls
        sources = [self.remember(self.random.choice(threads), index) for index in range(self.spec.remember)]
        sources += [self.proposal(self.random.choice(threads), index) for index in range(self.spec.proposals)]
        for index in range(self.spec.ignored):
            self.not_counted(self.random.choice(threads), index)
        self.world["pull_requests"] = pulls
        self.world["generator"] = {"spec": self.spec.__dict__, "note": "bench.busy_month"}
        return BusyMonth(self.world, tuple(sorted(sources, key=lambda source: source.at)))

    def remember(self, thread: dict[str, Any], index: int) -> Source:
        area = AREAS[index % len(AREAS)]
        text = f"Reports about the {area} module number {index} go to its owners first."
        item = self.comment(thread, self.random.choice(PUSHERS), f"Noted.\n\n/assistant remember {text}")
        return Source("remember", thread["number"], item["id"], item["at"], text)

    def proposal(self, thread: dict[str, Any], index: int) -> Source:
        area = AREAS[index % len(AREAS)]
        text = f"Warnings from the {area} module in case {index} are expected, not bugs."
        body = proposal_comment("Should I remember this?", text)
        item = self.comment(thread, ASSISTANT, body)
        moment = datetime.strptime(item["at"], TIME).replace(tzinfo=END.tzinfo)
        thumbs = self.unique(moment + timedelta(minutes=self.random.randint(1, 20)))
        item["reactions"] = [reaction(self.random.choice(PUSHERS), "THUMBS_UP", thumbs)]
        return Source("proposal", thread["number"], item["id"], item["at"], text)

    def not_counted(self, thread: dict[str, Any], index: int) -> None:
        """A command by a triager (no push access), or a proposal only a passer-by liked."""
        if index % 2 == 0:
            self.comment(thread, TRIAGERS[index % 2], f"/assistant remember Triager note {index}.")
            return
        item = self.comment(thread, ASSISTANT, proposal_comment("Remember?", f"Unaccepted idea {index}."))
        moment = datetime.strptime(item["at"], TIME).replace(tzinfo=END.tzinfo)
        item["reactions"] = [reaction(f"user{index:04d}", "THUMBS_UP", self.unique(moment))]


def busy_month(spec: BusyMonthSpec | None = None) -> BusyMonth:
    """The busy month of `spec` (the defaults: the month measured in docs/performance.md)."""
    spec = spec or BusyMonthSpec()
    base = WorldSpec(
        issues=spec.issues,
        seed=spec.seed,
        assistant_share=1.0,
        analyzed=spec.analysed,
        long_in_window=False,
        big_reactions=0,
        spacing_s=spec.spacing_s,
    )
    return _Month(spec, generate(base)).build()
