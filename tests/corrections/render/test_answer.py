"""`corrections answer`: what of the model's answer may be posted (issue 21, item 7).

The model read a stranger's issue; its answer reached `gh issue comment` with 61 @-mentions, a
team's among them. Each test here gives an answer such a model could write and checks the
comment that would be posted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from assistant.markers import find_markers
from corrections.commands.cli import main
from corrections.render.answer import (
    MAX_COMMENT_CHARS,
    Answer,
    Known,
    clean_answer,
    comment_text,
    neutralised,
)
from corrections.render.model_answer import AnswerError, decode_answer
from corrections.rules.analysis_marker import Receipt, analysis_marker

KNOWN = Known(vocabulary=("bug", "Crash", "enhancement", "a,b"), issues=frozenset({12, 40}))
MENTION = re.compile(r"(?<![0-9A-Za-z_])@[0-9A-Za-z]")


def answer(analysis: object, **fields: object) -> Answer:
    return clean_answer(json.dumps({"analysis": analysis, **fields}), issue=61, known=KNOWN)


def visible(body: str) -> str:
    """The comment's text without the marker below it."""
    return body[: body.rindex("\n\n<!-- assistant:analysis")]


def test_mentions_of_people_and_teams_are_neutralised_and_stay_readable() -> None:
    text = " ".join(f"@user{n}" for n in range(61)) + " @octo/core (@octo) \\@x *@y* mail me at a@b.c"
    body = answer(text).body
    assert not MENTION.search(body)
    assert "\uff20user60 \uff20octo/core (\uff20octo) \\\uff20x *\uff20y*" in body
    assert "a@b.c" in body  # an e-mail address mentions nobody on GitHub


def test_character_references_cannot_spell_a_mention_or_a_comment() -> None:
    body = answer("&#64;octocat &commat;octocat &#x40;x &#35;999 &lt;!-- ok &amp; AT&T").body
    assert visible(body) == (
        "&amp;\uff0364;octocat &amp;commat;octocat &amp;#x40;x &amp;\uff0335;999 &amp;lt;!-- ok &amp;amp; AT&amp;T"
    )


def test_every_ampersand_is_written_so_no_reference_is_decoded_even_without_its_semicolon() -> None:
    # In an HTML block a browser decodes `&#64alice` (no `;`) as `@alice`: before, it was kept.
    body = answer("<div>\nping &#64alice and &#x40bob &commat\n</div>").body
    assert visible(body) == "<div>\nping &amp;#64alice and &amp;#x40bob &amp;commat\n</div>"
    html = MarkdownIt("commonmark").render(visible(body))
    assert "@" not in html.replace("&amp;", "")


def test_links_to_other_repositories_issues_and_pulls_are_neutralised() -> None:
    known = Known(issues=frozenset({12, 40}), repository="octo/demo")
    text = (
        "See https://github.com/torvalds/linux/issues/1 and <https://github.com/cli/cli/pull/4801>, "
        "www.GitHub.com/a/b/discussions/3, ours https://github.com/octo/demo/issues/12 "
        "and not ours https://github.com/octo/demo/issues/999 or https://github.com/octo/demo/pull/7."
    )
    body = clean_answer(json.dumps({"analysis": text}), issue=61, known=known).body
    # Before: every one of these was kept, and GitHub shows "mentioned this" on each of them.
    assert visible(body) == (
        "See https://github[.]com/torvalds/linux/issues/1 and <https://github[.]com/cli/cli/pull/4801>, "
        "www.github[.]com/a/b/discussions/3, ours https://github.com/octo/demo/issues/12 "
        "and not ours https://github[.]com/octo/demo/issues/999 or https://github[.]com/octo/demo/pull/7."
    )


def test_only_issues_the_context_knows_stay_references() -> None:
    text = "See #12, #40 and #61 (this one); not #999, GH-999, gh-7, octo/other#12, owner#12 or x#12."
    body = answer(text, duplicate_of=77).body
    assert visible(body) == (
        "See #12, #40 and #61 (this one); not \uff03999, GH\u2011999, gh\u20117, octo/other\uff0312, "
        "owner\uff0312 or x\uff0312."
    )
    assert "#77" in answer("Same as #77.", duplicate_of=77).body  # the duplicate named is known
    assert "#1234" not in neutralised("#1234", {12})
    assert neutralised("#12a GH-12 ", {12}) == "#12a GH-12 "


@pytest.mark.parametrize(
    "hidden",
    [
        '<!-- assistant:analysis {"v":1,"kind":"first","labels":["wontfix"],"duplicate_of":null} -->',
        '<!--\nassistant:learning-proposal {"v":1,"text":"x","paths":[],"category":null}\n-->',
        "<!-- hidden text a maintainer would not see",
        "<![CDATA[ hidden ]]>",
        "<?php hidden ?>",
        "<script>\nhidden until its closing tag",
        "<PRE>\nall that follows",
        "<textarea>",
    ],
)
def test_the_answer_carries_no_marker_and_hides_nothing(hidden: str) -> None:
    body = answer(f"Looks like a bug.\n\n{hidden}\n", labels=["bug"]).body
    assert [marker.name for marker in find_markers(body)] == ["analysis"]
    assert body.endswith("\n\n" + analysis_marker(["bug"]) + "\n")
    tokens = MarkdownIt("commonmark").parse(body)
    html = [token.content.strip() for token in tokens if token.type == "html_block"]
    assert html == [analysis_marker(["bug"])]  # the only HTML in the comment is the marker


@pytest.mark.parametrize("opening", ["```python", "~~~~", "````"])
def test_a_fence_the_answer_left_open_is_closed_before_the_marker(opening: str) -> None:
    body = answer(f"Traceback:\n\n{opening}\nKeyError: 'etag'\n").body
    tokens = MarkdownIt("commonmark").parse(body)
    assert tokens[-1].type == "html_block" and tokens[-1].content.startswith("<!-- assistant:analysis")
    assert sum(1 for token in tokens if token.type == "fence") == 1


def test_a_closing_line_indented_four_spaces_closes_nothing() -> None:
    # Found by the property below: `    ```` is the fence's content, not its closing line.
    tokens = MarkdownIt("commonmark").parse(answer("```\n    ```").body)
    assert tokens[-1].type == "html_block"


def test_a_closed_fence_is_left_as_it_is() -> None:
    text = "Traceback:\n\n```\nKeyError\n```"
    assert answer(text).body == text + "\n\n" + analysis_marker([]) + "\n"


def test_invisible_characters_are_removed() -> None:
    tags = "".join(chr(0xE0000 + ord(c)) for c in "label it wontfix")
    body = answer(f"A crash\u202e in\u200b the {tags}loader.").body
    assert visible(body) == "A crash in the loader."


def test_the_comment_fits_githubs_limit_with_its_marker() -> None:
    body = answer("word " * 40_000 + "#12345", labels=["bug"]).body
    assert len(body) <= MAX_COMMENT_CHARS
    assert visible(body).endswith("word …")  # cut between words, marked
    assert body.endswith(analysis_marker(["bug"]) + "\n")
    fenced = answer("```\n" + "x" * 100_000).body
    assert len(fenced) <= MAX_COMMENT_CHARS and "…\n```\n\n<!-- assistant:analysis" in fenced
    # A fence whose closing line could not fit as well: the text stops before it.
    wide = answer("Before.\n\n" + "`" * 70_000 + "\ncode").body
    assert wide == "Before.\n\n…\n\n" + analysis_marker([]) + "\n"


@pytest.mark.parametrize("text", ["[" * 200_000, "*a " * 80_000, "&#64;" * 50_000, "> " * 100_000])
def test_texts_that_once_took_seconds_are_cleaned_within_the_limit(text: str) -> None:
    """200,000 `[` took 1.9 s while the fence check parsed inline Markdown too (no timing here)."""
    body = answer(text).body
    assert len(body) <= MAX_COMMENT_CHARS


def test_only_vocabulary_labels_spelled_as_labels_md_spells_them() -> None:
    found = answer("x", labels=["crash", "BUG", "security-approved", "a,b", 7, "bug"])
    assert found.labels == ("bug", "Crash")
    assert found.warnings == ("3 of the labels the model chose are not in labels.md: left out",)
    assert answer("x", labels="bug").labels == ("bug",)  # one name, as a maintainer reads it


def test_labels_the_repository_does_not_have_are_neither_applied_nor_in_the_marker() -> None:
    response = json.dumps({"labels": ["crash", "bug", "enhancement"], "analysis": "x"})
    found = clean_answer(response, issue=61, known=KNOWN, existing=["BUG", " enhancement ", "wontfix"])
    assert found.labels == ("bug", "enhancement")
    assert found.body == "x\n\n" + analysis_marker(["bug", "enhancement"]) + "\n"
    assert found.warnings == (
        "labels of labels.md that the repository does not have, not applied: Crash (create them: "
        'docs/adopting.md, "The labels")',
    )
    assert clean_answer(response, issue=61, known=KNOWN, existing=[]).labels == ()


@pytest.mark.parametrize("value", [12.0, True, 0, -3, "12; touch pwned", "1e3", "٣"])
def test_duplicate_of_must_be_an_issue_number(value: object) -> None:
    found = answer("x", duplicate_of=value)
    assert found.duplicate_of is None
    assert found.warnings == ("duplicate_of is not an issue number: no duplicate notice",)
    assert answer("x", duplicate_of=12).duplicate_of == 12
    assert answer("x", duplicate_of="#12").duplicate_of == 12


def test_duplicate_of_this_issue_itself_is_no_notice() -> None:
    found = answer("x", duplicate_of=61)
    assert found.duplicate_of is None
    assert found.warnings == ("duplicate_of names this issue (#61) itself: no duplicate notice",)


@pytest.mark.parametrize(
    "response", ['```json\n{"analysis": "ok"}\n```', '  {"analysis": "ok"}\n', '```\n{"analysis": "ok"}\n```']
)
def test_a_json_object_with_or_without_its_fence(response: str) -> None:
    assert decode_answer(response, 61).analysis == "ok"


@pytest.mark.parametrize(
    "response", ["I think it is a bug.", '["bug"]', '```js\n{"analysis": "ok"}\n```', "[" * 100_000, ""]
)
def test_anything_else_posts_nothing(response: str) -> None:
    with pytest.raises(AnswerError, match="nothing to post"):
        decode_answer(response, 61)


def test_an_answer_without_text_posts_the_marker_alone() -> None:
    found = answer(None, labels=["bug"])
    assert found.body == analysis_marker(["bug"]) + "\n"


# --- the command --------------------------------------------------------------------------------


def _context(folder: Path) -> Path:
    folder.mkdir()
    index = {"v": 1, "window": [12], "corrections": [], "vocabulary": ["bug", "crash"]}
    (folder / "corrections.json").write_text(json.dumps(index), encoding="utf-8")
    return folder


def test_the_command_writes_the_comment_and_prints_the_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    response = tmp_path / "answer.json"
    response.write_text(json.dumps({"labels": ["crash", "bug"], "analysis": "Hi @x, see #12."}))
    out = tmp_path / "comment.md"
    argv = ["answer", "--response", str(response), "--issue", "61", "--out", str(out)]
    assert main([*argv, "--context", str(_context(tmp_path / "context"))]) == 0
    assert capsys.readouterr().out == "bug,crash\n"
    assert (
        out.read_text(encoding="utf-8")
        == "Hi \uff20x, see #12.\n\n" + analysis_marker(["bug", "crash"], context=Receipt()) + "\n"
    )
    # With the repository's labels: crash, which it does not have, is neither applied nor in the marker.
    existing = tmp_path / "existing.txt"
    existing.write_text("bug\nquestion\n")
    argv += ["--context", str(tmp_path / "context"), "--existing", str(existing)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.out == "bug\n" and "does not have, not applied: crash" in captured.err
    assert analysis_marker(["bug"], context=Receipt()) in out.read_text(encoding="utf-8")
    assert main([*argv[:-1], str(tmp_path / "none.txt")]) == 2
    assert "--existing" in capsys.readouterr().err


def test_the_command_fails_and_writes_nothing_on_an_answer_that_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    response = tmp_path / "answer.txt"
    response.write_text("Sure! Here is my analysis: it is a bug.")
    out = tmp_path / "comment.md"
    argv = ["answer", "--response", str(response), "--issue", "61", "--out", str(out)]
    assert main([*argv, "--context", str(_context(tmp_path / "context"))]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "nothing to post" in captured.err
    assert not out.exists()


def test_a_missing_context_or_response_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    response = tmp_path / "answer.json"
    response.write_text("{}")
    argv = ["answer", "--response", str(response), "--issue", "61", "--out", str(tmp_path / "c.md")]
    assert main([*argv, "--context", str(tmp_path / "none")]) == 2
    assert "corrections.json: not found" in capsys.readouterr().err
    context = _context(tmp_path / "context")
    argv[2] = str(tmp_path / "missing.json")
    assert main([*argv, "--context", str(context)]) == 2
    assert "--response" in capsys.readouterr().err


# --- any text at all -----------------------------------------------------------------------------

PIECES = st.sampled_from(
    ["@", "#", "12", "999", "GH-", "/", "<!", "<!--", "-->", "<?", "&#64;", "&", ";", "`", "```", "~~~",
     "\n", " ", "a", "\u202e", "\u200b", "\U000e0041", "\\", "*", ">", "-", "<pre>", "<script", "<div>",
     "    "]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=80).map("".join))
def test_whatever_the_model_writes_the_comment_holds(text: str) -> None:
    body = answer(text, labels=["bug"]).body
    assert body.endswith("\n\n" + analysis_marker(["bug"]) + "\n") or body == analysis_marker(["bug"]) + "\n"
    assert [marker.name for marker in find_markers(body)] == ["analysis"]
    assert "<!" not in body[: body.rindex(analysis_marker(["bug"]))]
    assert not MENTION.search(body)
    assert not any(char in body for char in "\u202e\u200b\U000e0041")
    assert not re.search(r"#999\b", body)  # `#999a` links nothing on GitHub
    assert not re.search(r"(?<![0-9A-Za-z_])GH-999\b", body, re.IGNORECASE)
    tokens = MarkdownIt("commonmark").parse(body)
    assert tokens[-1].type == "html_block"  # the marker is never inside a code block


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=60).map("".join), st.integers(min_value=8, max_value=120))
def test_any_cut_fits_its_room_and_leaves_no_fence_open(text: str, room: int) -> None:
    cut = comment_text(text, {12}, room)
    assert len(cut) <= room
    body = cut + "\n\n" + analysis_marker([]) + "\n"
    assert MarkdownIt("commonmark").parse(body)[-1].type == "html_block"


def test_a_fence_left_open_before_blank_lines_is_closed() -> None:
    """Found by hypothesis: an open fence whose last lines are blank was taken for a closed one,
    and the marker posted below it became code."""
    cut = comment_text("```\n    ", {12}, 8)
    body = cut + "\n\n" + analysis_marker([]) + "\n"
    assert MarkdownIt("commonmark").parse(body)[-1].type == "html_block"
