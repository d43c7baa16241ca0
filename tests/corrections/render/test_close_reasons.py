"""How an issue file words its closes: each close says the reason GitHub gives it.

GitHub's current schema returns DUPLICATE by default, on `Issue.stateReason` and on a timeline's
`ClosedEvent.stateReason` alike (changelog of 2025-07-15: "the state reason for duplicate issue is
now returned by default"). The close that still stands takes the issue's reason; COMPLETED says
nothing.
"""

from __future__ import annotations

from corrections.render.files import render_issue_md
from corrections.rules.models import Actor
from tests.corrections.conftest import IssueBuilder

ALICE = Actor(login="alice")


def _closes(text: str) -> list[str]:
    return [line.split(" ", 1)[1] for line in text.splitlines() if "closed the issue" in line]


def test_a_close_as_a_duplicate_says_so() -> None:
    # As GitHub answers now: the event and the issue both say DUPLICATE.
    built = IssueBuilder().analysis().close(ALICE, "DUPLICATE").build()
    issue = built.model_copy(update={"state_reason": "DUPLICATE"})
    assert _closes(render_issue_md(issue, None)) == ['"alice" closed the issue as DUPLICATE']


def test_an_earlier_close_as_a_duplicate_says_so_too() -> None:
    builder = IssueBuilder().analysis().close(ALICE, "DUPLICATE").reopen(ALICE).close(ALICE, "NOT_PLANNED")
    issue = builder.build().model_copy(update={"state_reason": "NOT_PLANNED"})
    assert _closes(render_issue_md(issue, None)) == [
        '"alice" closed the issue as DUPLICATE',
        '"alice" closed the issue as NOT_PLANNED',
    ]
    reopened = IssueBuilder().analysis().close(ALICE, "COMPLETED").reopen(ALICE).build()
    assert _closes(render_issue_md(reopened, None)) == ['"alice" closed the issue']
