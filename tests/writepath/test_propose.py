"""`learnings propose` writes the comment the sync accepts: posted as the assistant, kept as a
learning once a pusher reacts 👍, and refused before anything is sent when it could never count."""

from __future__ import annotations

import re
from typing import Any

import pytest

from learnings.cli import main
from learnings.commands import pacing
from learnings.rules.proposals import parse_proposal
from learnings.sync.propose import proposal_body
from tests.writepath.conftest import Kit, Sync

REACT = (
    "mutation($s: ID!) { addReaction(input: {subjectId: $s, content: THUMBS_UP}) { reaction { content } } }"
)
TEXT = "Flaky `test_db` runs need TEST_DB_URL set *before* the fixtures load"


def propose(kit: Kit, monkeypatch: pytest.MonkeyPatch, time_machine: Any, *extra: str) -> int:
    monkeypatch.setenv("GITHUB_TOKEN", "assistant-token")  # the assistant's own account
    monkeypatch.setattr(pacing, "PACING", pacing.Pacing(time_machine.sleep, time_machine.clock))
    return main(["propose", "--repo", "octo/demo", "--api-url", kit.server.url, *extra])


def test_a_proposal_written_by_propose_is_accepted_after_a_pushers_thumbs_up(
    kit: Kit,
    sync: Sync,
    time_machine: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = propose(
        kit,
        monkeypatch,
        time_machine,
        "--on",
        "10",
        "--text",
        TEXT,
        "--paths",
        "test/**",
        "--category",
        "flaky",
    )
    out = capsys.readouterr().out
    assert status == 0
    found = re.fullmatch(r"proposed on #10 \(comment (\d+)\); a pusher's 👍 accepts it\n", out)
    assert found is not None
    comment = int(found.group(1))
    waiting = sync()
    assert TEXT not in {learning.text for learning in waiting.recorded}
    assert any(f"comment {comment}: proposal waits for a 👍 from a pusher" in note for note in waiting.notes)

    kit.graphql(REACT, {"s": kit.comment_node_id(10, comment)}, "bob-token")
    accepted = sync()
    learning = next(learning for learning in accepted.recorded if learning.text == TEXT)
    assert (learning.paths, learning.category) == (("test/**",), "flaky")
    assert (learning.source.issue, learning.source.comment, learning.source.accepted_by) == (
        10,
        comment,
        "bob",
    )


def test_a_proposal_that_could_never_count_is_refused_before_sending(
    kit: Kit, time_machine: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    before = len(kit.server.log())
    assert propose(kit, monkeypatch, time_machine, "--on", "10", "--text", "x", "--paths", "[") == 2
    assert propose(kit, monkeypatch, time_machine, "--on", "10", "--text", "x", "--category", "no way") == 2
    assert len(kit.server.log()) == before
    assert propose(kit, monkeypatch, time_machine, "--on", "999", "--text", "x") == 1
    assert "could not comment on #999 of octo/demo" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "paths", "category"),
    [
        ("release notes go in CHANGES.md", (), None),
        ("<b>not html</b> and [a](link) and `code` and > quote", ("src/**", "docs/*.md"), "style"),
        ("  spaced   out\ttext  ", (), None),
    ],
)
def test_the_body_reads_back_as_written(text: str, paths: tuple[str, ...], category: str | None) -> None:
    read = parse_proposal(proposal_body(text, paths, category))
    assert read is not None and (read.text, read.paths, read.category) == (text, paths, category)
