"""`corrections prompt` on the folder `corrections read` wrote from the demo world (real HTTP)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from corrections.commands.cli import main
from corrections.commands.demo import PLANTED_FAULTS, planted_note
from corrections.render.pointers import pointing_only_at
from corrections.render.prompt_budget import DEFAULT_MAX_TOKENS
from corrections.render.tokens import count_tokens
from emulator import Server

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def demo_context(tmp_path_factory: pytest.TempPathFactory, demo_server: Server) -> Iterator[Path]:
    """The demo's context folder, read as the demo command reads it."""
    out = tmp_path_factory.mktemp("demo-context")
    server = demo_server
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("GITHUB_TOKEN", "test-token")
        argv = ["read", "--repo", "octo/demo", "--api-url", server.url, "--out", str(out)]
        assert main([*argv, "--paths", "src/demo/sync/engine.py"]) == 0
    yield out


def prompt_of(folder: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    capsys.readouterr()
    assert main(["prompt", "--context", str(folder), *argv]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("prompt.md", ["--issue", "61"]),
        ("prompt-9000.md", ["--issue", "61", "--max-chars", "9000"]),
    ],
)
def test_demo_prompt_snapshot(
    demo_context: Path,
    capsys: pytest.CaptureFixture[str],
    snapshot: SnapshotAssertion,
    name: str,
    argv: list[str],
) -> None:
    text, err = prompt_of(demo_context, capsys, *argv)
    if "--max-chars" in argv:
        assert len(text) <= int(argv[-1])
    else:
        assert count_tokens(text) <= DEFAULT_MAX_TOKENS
    assert f"corrections: prompt: {len(text):,} characters, {count_tokens(text):,} tokens (o200k_base)" in err
    # The files the model would otherwise have to open are in the text, whole.
    # (A line's pointer at an excerpt the budget left out is taken away: see test_pointers.py.)
    corrections = (demo_context / "corrections.md").read_text(encoding="utf-8")
    learnings = (demo_context / "learnings.md").read_text(encoding="utf-8")
    shown = {int(n) for n in re.findall(r"^### Issue #(\d+)", text, re.MULTILINE)}
    corrections = pointing_only_at(corrections, shown)
    assert corrections.split("\n", 1)[1].strip("\n") in text and learnings.strip("\n") in text
    assert all(int(n) in shown for n in re.findall(r"the reason: see issues/(\d+)\.md", text))
    assert text == snapshot(name=name)


def test_demo_prompt_of_every_issue_when_the_budget_allows(
    demo_context: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, err = prompt_of(demo_context, capsys, "--max-chars", "10000000")
    # The window's 30 and the horizon's corrected issues past it (issue 31).
    assert "issue excerpts: 32 of 32 shown, 0 cut, 0 left out" in err
    for issue in (demo_context / "issues").iterdir():
        body = issue.read_text(encoding="utf-8").split("\n\n", 2)[2]  # below the heading and the preamble
        assert body.strip("\n") in text


def test_the_demo_command_writes_the_prompt_beside_the_context(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "prompt.md").read_text(encoding="utf-8")
    err = capsys.readouterr().err
    assert count_tokens(text) <= DEFAULT_MAX_TOKENS and "### Issue #" in text
    assert f"corrections: wrote {tmp_path}/prompt.md: {len(text):,} characters" in err


def test_the_prompt_from_memory_is_the_prompt_of_the_folder_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The demo assembles prompt.md from the rendered files in memory; `corrections prompt` reads the
    # folder back: the same text, byte for byte.
    assert main(["demo", "--out", str(tmp_path)]) == 0
    text, _err = prompt_of(tmp_path, capsys)
    assert (tmp_path / "prompt.md").read_text(encoding="utf-8") == text


def test_the_demo_says_its_warnings_are_its_planted_faults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    warnings = [line for line in err.splitlines() if line.startswith("corrections: warning: ")]
    assert len(warnings) == len(PLANTED_FAULTS)
    assert all(line.removeprefix("corrections: warning: ").startswith(PLANTED_FAULTS) for line in warnings)
    assert "4 of the 4 warnings above are the demo's planted faults" in err


def test_a_warning_the_demo_did_not_plant_is_called_out() -> None:
    note = planted_note([*PLANTED_FAULTS, "#7 comment 1: something new"])
    assert "4 of the 5 warnings above" in note and "1 is not planted" in note


# GitHub Models' free tier takes 8,000 input tokens for many models; the example asks for an answer
# of at most 1,500 (`max-tokens` in examples/first-analysis.yml), and its system lines (the answer's
# shape, the vocabulary, the fence rule) are well under 400.
FREE_TIER_INPUT = 8_000
EXAMPLE_SYSTEM_LINES = 400


def test_the_default_prompt_with_the_instructions_and_the_largest_issue_fits_the_free_tier(
    demo_context: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The default budget holds with the sample instructions and a 65,536-character new issue
    (GitHub's largest body): the model still gets room to answer within the free tier's input."""
    words = "the sync engine drops a row when two clients write at once and the retry "
    body = (words * (65_536 // len(words) + 1))[:65_536]
    event = tmp_path / "event.json"
    issue = {"number": 61, "title": "Sync drops rows " * 16, "body": body, "user": {"login": "dave"}}
    event.write_text(json.dumps({"action": "opened", "issue": issue}), encoding="utf-8")
    text, _err = prompt_of(demo_context, capsys, "--issue", "61", "--event", str(event))
    assert "## The issue you are analysing: #61" in text
    instructions = (ROOT / "examples" / "instructions.md").read_text(encoding="utf-8")
    total = count_tokens(text) + count_tokens(instructions) + EXAMPLE_SYSTEM_LINES
    assert total <= FREE_TIER_INPUT, f"{total} tokens"
