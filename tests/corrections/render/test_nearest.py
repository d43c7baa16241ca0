"""Nearest first: the order of the lines when the issue being analysed is known.

On plain models (the answer is planted in the texts), then end to end through `corrections read
--issue N` on a generated world whose topic families say which lines are near.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bench.topic_world import TopicSpec, TopicWorld, generate
from corrections.commands.cli import main
from corrections.render.nearest import nearest_first
from corrections.rules.models import IssueCorrection
from emulator import Server
from tests.emulation import Emulators

DAY = datetime(2026, 11, 1, tzinfo=UTC)


def line(number: int, days_ago: int) -> IssueCorrection:
    return IssueCorrection(
        number=number, title=f"#{number}", labels_removed=("bug",), corrected_at=DAY - timedelta(days_ago)
    )


# Newest first, as ReadOutcome.corrected gives them.
LINES = [line(5, 0), line(4, 1), line(3, 2), line(2, 3), line(1, 4)]
TEXTS = {
    5: "Progress bar flickers in tmux\nThe bar redraws the whole line.",
    4: "TLS handshake fails: certificate hostname mismatch\nBucket name with dots.",
    3: "Crash on upload of a 6 GB file\nMultipart upload dies.",
    2: "Certificate verify failed behind the corporate CA\nssl error on every request.",
    1: "Docs typo in the README\nA small wording fix.",
}


def numbers(lines: list[IssueCorrection]) -> list[int]:
    return [c.number for c in lines]


def test_the_lines_about_the_same_subject_come_first() -> None:
    query = "SSL certificate hostname does not match for bucket a.b.c"
    ranked = numbers(nearest_first(LINES, TEXTS, query))
    assert ranked[:2] == [4, 2]  # both TLS issues, the one sharing more words first
    assert sorted(ranked[2:]) == [1, 3, 5]  # the rest share only pieces of small words


def test_equally_near_lines_keep_newest_first() -> None:
    texts = {number: "certificate expired" for number in TEXTS}
    assert numbers(nearest_first(LINES, texts, "certificate expired")) == [5, 4, 3, 2, 1]


def test_no_shared_word_or_no_text_keeps_newest_first() -> None:
    assert numbers(nearest_first(LINES, TEXTS, "zzz qqq")) == [5, 4, 3, 2, 1]
    assert numbers(nearest_first(LINES, TEXTS, "  ")) == [5, 4, 3, 2, 1]
    assert numbers(nearest_first(LINES, {}, "certificate")) == [5, 4, 3, 2, 1]
    assert numbers(nearest_first(LINES[:1], TEXTS, "certificate")) == [5]


def test_ranking_needs_neither_bm25s_nor_numpy() -> None:
    """The action installs neither (a cold runner downloaded numpy for the ranking alone): a read's
    modules and a ranking import none of them."""
    code = (
        "import sys, contextlib, io\n"
        "import corrections.commands.cli, corrections.read.round_trips, corrections.commands.action_step, corrections.render.context\n"
        "from corrections.render.nearest import similarity\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    corrections.commands.cli.main(['read', '--help'])\n"
        "assert similarity(['disk full', 'windows path'], 'the disk is full')[0] > 0\n"
        "print(sorted(m for m in ('bm25s', 'numpy') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


SPEC = TopicSpec(issues=40, seed=5, families=4, corrected_share=0.7)


@pytest.fixture(scope="module")
def topics(emulate_module: Emulators) -> tuple[TopicWorld, Server]:
    generated = generate(SPEC)
    return generated, emulate_module(generated.world)


def read(server: Server, out: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> dict[str, Any]:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    argv = ["read", "--repo", "octo/topics", "--api-url", server.url, "--out", str(out), *extra]
    assert main(argv) == 0
    return dict(json.loads((out / "corrections.json").read_text(encoding="utf-8")))


def test_read_with_issue_puts_its_family_first_at_no_extra_request(
    topics: tuple[TopicWorld, Server], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generated, server = topics
    before = len(server.log())
    plain = read(server, tmp_path / "plain", monkeypatch)
    plain_served = server.log()[before:]
    corrected = [c["number"] for c in plain["corrections"]]
    # The newest corrected issue, as if it were being analysed again: its own family comes first.
    analysed = corrected[0]
    family = generated.family[analysed]
    before = len(server.log())
    ranked = read(server, tmp_path / "ranked", monkeypatch, "--issue", str(analysed))
    served = server.log()[before:]
    # The analysed issue's text rode in the first round trip: no request and no point more.
    assert len(served) == len(plain_served)
    assert sum(e["cost"] or 0 for e in served) == sum(e["cost"] or 0 for e in plain_served)
    assert served[0]["operation"] == "CorrectionWindow"
    order = [c["number"] for c in ranked["corrections"]]
    assert analysed not in order  # never one of its own lines
    assert sorted(order) == sorted(n for n in corrected if n != analysed)
    # The lines lead with their nearest issue (a collapsed line holds more); among the leads of the
    # window (the horizon past it adds older ones, ranked the same way), every line of its family
    # before any other.
    order = [line[0] for line in ranked["lines"] if line[0] in set(ranked["window"])]
    same = [n for n in order if generated.family[n] == family]
    assert same and order[: len(same)] == same
    text = (tmp_path / "ranked" / "corrections.md").read_text(encoding="utf-8")
    assert "most similar to the issue you are analysing" in text
    assert generated.world["issues"][analysed - 1]["body"] not in text  # its text is never rendered


def test_read_with_an_unknown_issue_says_so_and_keeps_newest_first(
    topics: tuple[TopicWorld, Server],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, server = topics
    plain = read(server, tmp_path / "plain", monkeypatch)
    unknown = read(server, tmp_path / "unknown", monkeypatch, "--issue", "#4000")  # as people write it
    assert unknown["corrections"] == plain["corrections"]
    assert "issue #4000 not found: corrections are in newest-first order" in capsys.readouterr().err
