"""Answers owed are owed until given: a busy week's commands are each answered once, within three
runs, whatever ends a run's answering (its time budget, GitHub refusing an answer). The sync's mark
keeps every answer still owed, the next run gives them first, and each run says how many it owes."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Server
from learnings.cli import main
from learnings.commands import pacing
from learnings.sync.marks import read_marks
from queries.write import (
    CONTENT_PER_HOUR,
    CONTENT_PER_MINUTE,
    MAX_ANSWERS,
    MAX_MUTATIONS,
    MIN_INTERVAL,
    write_budget,
)
from tests.kit.world import placed_issue
from tests.writepath.conftest import Sync, build_world, comment
from tests.writepath.test_sync_answers import EYES, ROCKET, answered

COMMANDS = 90
PER_ISSUE = 3


def busy_week() -> dict[str, Any]:
    """The write path's world with 90 commands by bob, three an issue, over one week."""
    world = build_world()
    for index in range(COMMANDS // PER_ISSUE):
        number = 100 + index
        day = 21 + index * 7 // (COMMANDS // PER_ISSUE)
        comments = [
            comment(
                2700100000 + index * PER_ISSUE + k,
                "bob",
                f"2026-11-{day:02d}T{10 + k:02d}:{index % 60:02d}:00Z",
                f"/assistant remember module {number} rule {k} holds",
            )
            for k in range(PER_ISSUE)
        ]
        world["issues"].append(
            placed_issue(number, f"Busy {number}", "dave", f"2026-11-{day:02d}T09:00:00Z", "", comments)
        )
    return world


@pytest.fixture
def world() -> dict[str, Any]:
    return busy_week()


def mark_answers(server: Server) -> int:
    """How many owed answers the sync's open pull request's mark lists."""
    pulls = [p for p in server.state()["pull_requests"] if p.get("head") == "assistant/learnings"]
    marks = read_marks(p["body"] for p in pulls)
    assert marks is not None
    return len(marks.answers)


def test_ninety_commands_are_answered_once_each_within_three_runs(server: Server, sync: Sync) -> None:
    everyone = COMMANDS + len(ROCKET | EYES)
    runs, marked = [], []
    for _ in range(3):
        runs.append(sync(write_budget=45.0))
        marked.append(mark_answers(server))
    given = [run.mutations.count("AddReaction") for run in runs]
    assert runs[0].outcome == "recorded" and len(runs[0].recorded) >= COMMANDS
    # A run's time budget ends its answering; what it owes the next run gives first.
    assert 0 < given[0] < everyone and runs[0].owed == everyone - given[0]
    # The mark keeps every answer owed until given (given ones are read back as given).
    assert marked[0] == everyone and marked[1] >= everyone - given[0]
    assert runs[1].owed == everyone - given[0] - given[1]
    assert runs[2].owed == 0 and sum(given) == everyone
    mine = answered(server)
    assert len(mine) == everyone and all(len(contents) == 1 for contents in mine.values())
    assert "AddReaction" not in sync().mutations


def test_an_answer_github_refuses_stays_owed(server: Server, sync: Sync) -> None:
    server.set_faults([{"kind": "secondary_limit", "operation": "AddReaction", "nth": 41, "times": 1}])
    first = sync()
    assert first.mutations.count("AddReaction") == 41  # the 41st was refused: answering stopped there
    second = sync()
    assert len(answered(server)) == COMMANDS + len(ROCKET | EYES)
    assert first.owed == COMMANDS + len(ROCKET | EYES) - 40 and second.owed == 0


def test_pacing_and_budget_agree_with_githubs_limits() -> None:
    # A second apart stays under 80 content-creating requests a minute; one run's writes take under a
    # quarter of the hour's 500; the time budget holds every write the caps allow, each as slow as
    # the 1.06 s an answer took on the emulator, so the cap, not the clock, ends a run's answering.
    assert 60 / MIN_INTERVAL <= CONTENT_PER_MINUTE
    assert (MAX_MUTATIONS + MAX_ANSWERS) * 4 <= CONTENT_PER_HOUR
    assert write_budget(MAX_MUTATIONS, MAX_ANSWERS, MIN_INTERVAL) >= (MAX_MUTATIONS + MAX_ANSWERS) * 1.06


def test_the_default_budget_answers_a_busy_week_in_one_run(server: Server, sync: Sync) -> None:
    first = sync()
    assert first.mutations.count("AddReaction") == COMMANDS + len(ROCKET | EYES) and first.owed == 0


def test_the_summary_says_what_is_owed_once(
    server: Server, time_machine: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server.set_faults([{"kind": "secondary_limit", "operation": "AddReaction", "nth": 41, "times": 1}])
    monkeypatch.setenv("GITHUB_TOKEN", "sync-token")
    monkeypatch.setattr(pacing, "PACING", pacing.Pacing(time_machine.sleep, time_machine.clock))
    assert main(["sync", "--repo", "octo/demo", "--api-url", server.url]) == 0
    out, err = capsys.readouterr()
    owed = COMMANDS + len(ROCKET | EYES) - 40
    said = f"{owed} command(s) still owed an answer (the next run gives them first)"
    assert out.splitlines()[-1].endswith(f"; {said}") and (out + err).count("owed") == 1
    assert main(["sync", "--repo", "octo/demo", "--api-url", server.url]) == 0
    out, err = capsys.readouterr()
    assert "owed" not in out + err
