"""One module decides how warnings are shown: plain at a terminal, at most 10 annotations in Actions."""

from __future__ import annotations

import io
from pathlib import Path

from assistant.config import ConfigError, parse_config
from commandline.notices import ANNOTATIONS, MAX_PLAIN, Notices
from tests.commandline.conftest import Command, git_checkout


def _notices(actions: bool) -> tuple[Notices, io.StringIO, io.StringIO]:
    out, err = io.StringIO(), io.StringIO()
    return Notices("corrections", actions=actions, stdout=out, stderr=err), out, err


def test_in_actions_the_first_nine_are_annotations_and_one_counts_the_rest() -> None:
    say, out, err = _notices(actions=True)
    for number in range(15):
        say.warning(f"problem {number}")
        say.warning(f"problem {number}")  # the same warning twice is said once
    say.close()
    lines = out.getvalue().splitlines()
    annotations = [line for line in lines if line.startswith("::warning")]
    assert len(annotations) == ANNOTATIONS
    assert annotations[0] == "::warning title=corrections::problem 0"
    assert annotations[-1] == "::warning title=corrections::6 more warnings: see the step's log"
    # The rest are in the log, as plain lines that cannot start a workflow command.
    assert [line for line in lines if not line.startswith("::")] == [
        f"corrections: warning: problem {number}" for number in range(9, 15)
    ]
    assert err.getvalue() == ""


def test_at_a_terminal_warnings_are_plain_sentences_on_stderr() -> None:
    say, out, err = _notices(actions=False)
    say.warning("line one\n::error::injected")
    for number in range(MAX_PLAIN + 3):
        say.warning(f"problem {number}")
    say.error("it broke")
    say.close()
    lines = err.getvalue().splitlines()
    assert out.getvalue() == ""
    assert lines[0] == "corrections: warning: line one ::error::injected"
    assert lines[-2] == "corrections: error: it broke"
    assert lines[-1] == "corrections: warning: 4 more warnings not shown"
    assert not any(line.startswith("::") for line in lines)


def test_broken_learnings_lines_are_annotated_at_most_ten_times(cli: Command, tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    git_checkout(root)
    store = root / ".github" / "assistant" / "learnings.jsonl"
    store.parent.mkdir(parents=True)
    store.write_text("not json\n" * 40, encoding="utf-8")
    inside = cli("learnings", "list", cwd=root, env={"GITHUB_ACTIONS": "true"})
    assert inside.status == 0
    annotations = [line for line in inside.out.splitlines() if line.startswith("::warning")]
    assert len(annotations) == 10 and "31 more warnings" in annotations[-1]
    outside = cli("learnings", "list", cwd=root)
    assert "::" not in outside.out + outside.err
    assert "learnings: warning: .github/assistant/learnings.jsonl:1: not valid JSON, skipped" in outside.err


def _error(text: str) -> str:
    try:
        parse_config(text, Path("assistant.toml"))
    except ConfigError as error:
        return str(error)
    raise AssertionError("no error")


def test_a_misspelt_key_names_the_key_probably_meant() -> None:
    assert _error("[context]\nscan_pages = 2\nmax_analysed = 3\n") == (
        "assistant.toml:3: unknown key context.max_analysed; did you mean max_analyzed?"
    )
    assert _error("[learnigns]\nenabled = false\n") == (
        "assistant.toml:1: unknown key learnigns; did you mean learnings?"
    )
    assert _error("[context]\ncolour = 'red'\n") == "assistant.toml:2: unknown key context.colour"


def test_a_count_of_one_is_singular() -> None:
    from commandline.notices import counted

    assert [counted(1, "point"), counted(0, "point"), counted(2_500, "point")] == [
        "1 point",
        "0 points",
        "2,500 points",
    ]
    assert [counted(1, "retry", "retries"), counted(3, "retry", "retries")] == ["1 retry", "3 retries"]
