"""How an issue file words its closes: never from a value GitHub's timeline never sends.

GitHub's `ClosedEvent.stateReason` takes no `enableDuplicate`, so a close as a duplicate reads
COMPLETED there; only `Issue.stateReason(enableDuplicate: true)` says DUPLICATE (the schema's
description of `IssueStateReason.DUPLICATE`). The close that still stands takes the issue's reason.
"""

from __future__ import annotations

from corrections.render.files import render_issue_md
from corrections.rules.models import Actor
from tests.corrections.conftest import IssueBuilder

ALICE = Actor(login="alice")


def _closes(text: str) -> list[str]:
    return [line.split(" ", 1)[1] for line in text.splitlines() if "closed the issue" in line]


def test_a_close_as_a_duplicate_is_worded_from_the_issue_not_the_event() -> None:
    # As GitHub answers: the event says COMPLETED, the issue (with enableDuplicate) DUPLICATE.
    built = IssueBuilder().analysis().close(ALICE, "COMPLETED").build()
    issue = built.model_copy(update={"state_reason": "DUPLICATE"})
    assert _closes(render_issue_md(issue, None)) == ['"alice" closed the issue as DUPLICATE']


def test_an_earlier_close_says_only_what_the_event_can_know() -> None:
    builder = IssueBuilder().analysis().close(ALICE, "NOT_PLANNED").reopen(ALICE).close(ALICE, "COMPLETED")
    issue = builder.build().model_copy(update={"state_reason": "DUPLICATE"})
    assert _closes(render_issue_md(issue, None)) == [
        '"alice" closed the issue as NOT_PLANNED',
        '"alice" closed the issue as DUPLICATE',
    ]
    reopened = IssueBuilder().analysis().close(ALICE, "COMPLETED").reopen(ALICE).build()
    assert _closes(render_issue_md(reopened, None)) == ['"alice" closed the issue']
