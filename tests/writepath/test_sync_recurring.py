"""The weekly sync proposes a learning for each decision maintainers made again and again, in its
own pull request (merging it is the review), each with the issues behind it, decided by the
corrections' one rule of what a correction is; and not again once it is a learning."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from assistant.config import Config
from corrections.commands.cli import main
from corrections.quality.recurring import recurring_decisions
from corrections.read.entry import read
from corrections.read.options import ReadOptions, ReadVariant
from corrections.rules.models import DuplicateNotice, DuplicateOutcome, IssueCorrection, Objector
from emulator import Server
from learnings.commands import pacing
from learnings.sync.recurring import Recurring
from learnings.sync.run import SyncOptions, SyncResult, run_sync
from tests.emulation import DEMO, Emulators
from tests.writepath.conftest import NOW, STORE, VirtualTime

BUG_TO_ENHANCEMENT = "label such issues `enhancement`, not `bug`"


def read_decisions(server: Server) -> Any:
    options = ReadOptions(
        owner="octo", name="demo", config=Config(), api_url=server.url, variant=ReadVariant(widest=True)
    )
    outcome = asyncio.run(read(options, "sync-token", lambda line: None))
    return recurring_decisions(outcome.corrected, minimum=2)  # the demo's habit: 2 issues


def sync(server: Server, recurring: Any) -> SyncResult:
    clock = VirtualTime()
    options = SyncOptions(
        owner="octo",
        name="demo",
        api_url=server.url,
        token="sync-token",
        sleep=clock.sleep,
        clock=clock.clock,
        now=lambda: NOW,
        recurring=tuple(recurring),
    )
    return asyncio.run(run_sync(options))


def test_a_recurring_decision_is_proposed_in_the_syncs_pull_request(emulate: Emulators) -> None:
    server = emulate(DEMO)
    initial = server.state()
    decisions = read_decisions(server)
    assert [(d.decision, d.issues) for d in decisions] == [(BUG_TO_ENHANCEMENT, (48, 41))]
    first = sync(server, [Recurring(d.decision, d.issues) for d in decisions])
    assert first.outcome == "recorded"
    learning = next(found for found in first.recorded if "enhancement" in found.text)
    assert learning.text == (
        "Recurring correction: label such issues `enhancement`, not `bug` "
        "(maintainers decided so on 2 issues: #48, #41)."
    )
    state = server.state()
    assert state["heads"]["main"] == initial["heads"]["main"]  # nothing reaches main unreviewed
    assert state["files"]["main"] == initial["files"]["main"]
    assert learning.text in state["files"]["assistant/learnings"][STORE]
    pull = next(p for p in state["pull_requests"] if p.get("head") == "assistant/learnings")
    assert json.dumps(learning.text)[1:-1] in pull["body"] and pull["base"] == "main"
    again = sync(server, [Recurring(d.decision, d.issues) for d in read_decisions(server)])
    assert again.outcome == "nothing-new" and not again.recorded


def test_corrections_sync_proposes_them_from_the_command_line(
    emulate: Emulators, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server = emulate(DEMO)
    clock = VirtualTime()
    monkeypatch.setenv("GITHUB_TOKEN", "sync-token")
    monkeypatch.setattr(pacing, "PACING", pacing.Pacing(clock.sleep, clock.clock))
    assert main(["sync", "--repo", "octo/demo", "--api-url", server.url]) == 0  # by default, 3 issues
    assert "0 decision(s) made on at least 3 issues" in capsys.readouterr().err
    assert main(["sync", "--repo", "octo/demo", "--api-url", server.url, "--min-issues", "2"]) == 0
    out, err = capsys.readouterr()
    assert "corrections: sync: 1 decision(s) made on at least 2 issues, proposed as learnings" in err
    assert out.startswith("recorded 1 learning in pull request #")


def corrected(
    number: int, removed: tuple[str, ...] = (), added: tuple[str, ...] = (), **extra: Any
) -> IssueCorrection:
    return IssueCorrection(
        number=number, title=f"issue {number}", labels_removed=removed, labels_added=added, **extra
    )


def objected(of: int, by: Objector) -> DuplicateNotice:
    return DuplicateNotice(of=of, outcome=DuplicateOutcome.OBJECTED, at=NOW, by=by)


def test_the_same_decision_is_the_rules_correction() -> None:
    found = recurring_decisions(
        [
            corrected(9, ("performance",), ("network",)),
            corrected(7, ("performance",), ("network",)),
            corrected(5, ("performance",), ("network", "docs")),  # another decision
            corrected(4, duplicate=objected(2, Objector.MAINTAINER)),
            corrected(3, duplicate=objected(2, Objector.MAINTAINER)),
            corrected(1, duplicate=objected(2, Objector.OTHER)),  # not the maintainers' decision
            corrected(8, ("`x`",)),
            corrected(6, ("`x`",)),
        ],
        minimum=2,
    )
    assert [(d.decision, d.issues) for d in found] == [
        ("do not label such issues `` `x` ``", (8, 6)),
        ("label such issues `network`, not `performance`", (9, 7)),
        ("such issues are not duplicates of #2", (4, 3)),
    ]
