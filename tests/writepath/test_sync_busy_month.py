"""A busy month through `learnings sync`: everything accepted is recorded, run after run, each run
within its points budget and saying what it left for the next one.

The world is generated here (1,200 issues, one every 36 minutes, and 150 pull requests over 30
days; 90 `remember` commands by pushers and 40 proposals a pusher accepted with 👍, spread over
them; 20 commands by a triager that never count). A budget of 25 points lets one run read about
14 pages of 30 issues: the month takes several runs, each going on from the mark the one before
wrote into the pull request's body.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from emulator import Server
from learnings.rules.proposals import proposal_comment
from learnings.sync.run import SyncResult
from tests.emulation import Emulators
from tests.writepath.conftest import VirtualTime, sync_once

START = datetime(2026, 10, 28, 0, 0, tzinfo=UTC)
ISSUES, PULLS, COMMANDS, PROPOSALS, REFUSED = 1200, 150, 90, 40, 20
BUDGET = 25


def _at(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def busy_world() -> tuple[dict[str, Any], set[int]]:
    """The month, and the comment ids of every accepted source."""
    rng = random.Random(26)
    threads: list[dict[str, Any]] = []
    for number in range(1, ISSUES + PULLS + 1):
        pull = number > ISSUES
        index = number - 1 if not pull else (number - ISSUES - 1) * ISSUES // PULLS
        created = START + timedelta(minutes=36 * index)
        thread: dict[str, Any] = {
            "number": number,
            "title": f"Thread {number}",
            "author": "dave",
            "created_at": _at(created),
            "timeline": [],
        }
        if pull:
            thread.update(base="main", head=f"fix-{number}")
        threads.append(thread)
    accepted: set[int] = set()
    comment_id = 2_800_000_000

    def add(thread: dict[str, Any], author: str, body: str, **extra: Any) -> int:
        nonlocal comment_id
        comment_id += 1
        last = thread["timeline"][-1]["at"] if thread["timeline"] else thread["created_at"]
        moment = datetime.fromisoformat(last.replace("Z", "+00:00")) + timedelta(minutes=rng.randint(1, 20))
        thread["timeline"].append(
            {"type": "comment", "id": comment_id, "author": author, "at": _at(moment), "body": body, **extra}
        )
        return comment_id

    for index in range(COMMANDS):
        thread = rng.choice(threads)
        accepted.add(
            add(thread, rng.choice(["alice", "bob"]), f"/assistant remember busy rule number {index}")
        )
    for index in range(PROPOSALS):
        thread = rng.choice(threads)
        body = proposal_comment("Should I remember this?", f"busy proposal number {index}")
        last = thread["timeline"][-1]["at"] if thread["timeline"] else thread["created_at"]
        thumbs = [{"user": "bob", "content": "THUMBS_UP", "at": last}]
        accepted.add(add(thread, "triage-assistant", body, reactions=thumbs))
    for index in range(REFUSED):
        add(rng.choice(threads), "carol", f"/assistant remember triager rule {index}")
    world = {
        "repository": {"owner": "octo", "name": "busy", "default_branch": "main"},
        "users": {"triage-assistant": "Bot", "github-actions": "Bot"},
        "permissions": {"alice": "ADMIN", "bob": "WRITE", "carol": "TRIAGE"},
        "files": {"main": {"README.md": "busy\n"}},
        "issues": threads[:ISSUES],
        "pull_requests": threads[ISSUES:],
    }
    return world, accepted


def _sync(server: Server, clock: VirtualTime) -> SyncResult:
    return sync_once(server, clock, name="busy", budget=BUDGET)


def test_a_busy_month_is_recorded_whole_across_runs_within_the_budget(emulate: Emulators) -> None:
    world, accepted = busy_world()
    server = emulate(world)
    clock = VirtualTime()
    recorded: set[int] = set()
    runs: list[SyncResult] = []
    while len(runs) < 12:
        result = _sync(server, clock)
        runs.append(result)
        recorded |= {learning.source.comment for learning in result.recorded if learning.source.comment}
        # Each run's cost is reported and stays within its budget.
        assert 0 < result.points <= BUDGET, (len(runs), result.points)
        if result.left is None:
            break
        assert "left for the next run" in result.left and f"budget of {BUDGET} points" in result.left
    assert len(runs) > 2  # the budget, not a page cap, split the month
    assert recorded == accepted
    # Every run but the last said what it left, in the pull request's body too.
    assert all(run.left for run in runs[:-1])
    body = next(p for p in server.state()["pull_requests"] if p.get("head") == "assistant/learnings")["body"]
    assert "The sync has read issues updated up to" in body and "stopped at its budget" not in body
    again = _sync(server, clock)
    assert (again.outcome, again.left, again.recorded) == ("nothing-new", None, ())


def test_a_page_cap_says_it_was_the_cap_and_the_body_what_is_left(emulate: Emulators) -> None:
    world, _accepted = busy_world()
    server = emulate(world)
    result = sync_once(server, VirtualTime(), name="busy", max_pages=2)
    assert result.left is not None and result.left.startswith("the scan stopped at its cap of 2 pages")
    body = next(p for p in server.state()["pull_requests"] if p.get("head") == "assistant/learnings")["body"]
    assert f"This run did not read everything: {result.left}." in body
