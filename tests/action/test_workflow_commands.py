"""Workflow commands, GITHUB_OUTPUT entries and the summary's escaping of untrusted titles."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from commandline.workflow import command, mask, output_block, write_outputs
from corrections.commands.action_step import classify
from corrections.commands.summary import markdown_text


def test_a_message_cannot_end_the_command_or_start_another() -> None:
    line = command("warning", "50% done\n::error::injected\r", title="a: b, c")
    assert line == "::warning title=a%3A b%2C c::50%25 done%0A::error::injected%0D"
    assert "\n" not in line


def test_mask_is_one_line() -> None:
    assert mask("abc\ndef") == "::add-mask::abc%0Adef"


def test_multi_line_output_uses_a_random_delimiter(
    tmp_path: Path, outputs: Callable[[Path], dict[str, str]]
) -> None:
    assert output_block("a", "x") == "a=x\n"
    block = output_block("b", "one\ntwo")
    assert block.startswith("b<<ghadelimiter_") and block != output_block("b", "one\ntwo")
    path = tmp_path / "output"
    write_outputs(path, [("a", "x"), ("b", "one\ntwo"), ("c", "")])
    assert outputs(path) == {"a": "x", "b": "one\ntwo", "c": ""}


def test_titles_render_as_inert_text() -> None:
    title = "![x](http://e.vil/p.png) <img src=x> | **bold** [link](https://e.vil) #1\u202e\n## heading"
    text = markdown_text(title, limit=200)
    # Every Markdown or HTML character is backslash-escaped; line breaks and bidi controls are gone.
    assert re.search(r"(?<!\\)[<>\[\]()!*|#_`]", text) is None
    assert "\n" not in text and "\u202e" not in text
    assert text.startswith("\\!\\[x\\]\\(http\\:\\/\\/e\\.vil")


def test_first_analysis_follow_up_and_preview_are_told_apart() -> None:
    opened = classify(
        "issues", {"action": "opened", "issue": {"number": 3}, "repository": {"default_branch": "dev"}}
    )
    assert (opened.mode, opened.issue, opened.default_branch, opened.event) == (
        "first-analysis",
        3,
        "dev",
        "issues.opened",
    )
    assert classify("issue_comment", {"action": "created"}).mode == "follow-up"
    assert classify("issues", {"action": "labeled"}).mode == "follow-up"
    assert classify("pull_request", {"action": "opened"}).mode == "follow-up"
    assert classify("workflow_dispatch", {}).mode == "preview"
