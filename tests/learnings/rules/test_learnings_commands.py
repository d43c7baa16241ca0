"""Commands in comments: where they count, how `remember` reads its text and globs, what is refused."""

from __future__ import annotations

import pytest

from assistant.commands import says_not_duplicate
from learnings.rules.comment_commands import (
    CommandProblem,
    IgnoreRule,
    NotDuplicate,
    Remember,
    learning_commands,
)

WORD = "/assistant"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("/assistant remember use tox", [Remember("use tox")]),
        (
            '/assistant remember "use tox -e py311" --paths tox.ini',
            [Remember("use tox -e py311", ("tox.ini",))],
        ),
        (
            "/assistant remember it's `make` here --paths `src/**`, docs/**",
            [Remember("it's `make` here", ("src/**", "docs/**"))],
        ),
        ("/ASSISTANT Remember shout", [Remember("shout")]),
        ("/assistant remember twice\r\n/assistant remember twice", [Remember("twice")]),
        ("> /assistant remember quoted", []),
        ("```\n/assistant remember fenced\n```", []),
        ("~~~~\n/assistant remember fenced\n~~~~", []),
        ("    /assistant remember indented code", []),
        ("Please run `/assistant remember inline` later", []),
        ("/assistant ignore-rule `012FA8CBA44F`", [IgnoreRule("012fa8cba44f")]),
        ("/assistant not-duplicate", [NotDuplicate()]),
        ("/assistant not-duplicate of #3", []),
        ("/assistant label bug", []),
    ],
)
def test_commands_in_a_body(body: str, expected: list[object]) -> None:
    assert learning_commands(body, WORD) == expected


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("/assistant remember", "no text to remember"),
        ('/assistant remember ""', "no text to remember"),
        ("/assistant remember x --paths", "--paths without a glob"),
        ("/assistant remember x --paths /etc/**", "a glob of --paths is not valid"),
        ("/assistant ignore-rule 12345", "the fingerprint is not 12 hexadecimal characters"),
    ],
)
def test_commands_that_cannot_be_used_say_why(body: str, reason: str) -> None:
    (found,) = learning_commands(body, WORD)
    assert isinstance(found, CommandProblem) and found.reason == reason


HIDDEN_OR_QUOTED = {
    "quote": "> /assistant not-duplicate",
    "lazy-quote-continuation": "> I would write\n/assistant not-duplicate",
    "nested-quote": "> > /assistant not-duplicate",
    "fence": "```\n/assistant not-duplicate\n```",
    "indented-code": "    /assistant not-duplicate",
    "code-span": "`/assistant not-duplicate`",
    "one-line-comment": "<!-- /assistant not-duplicate -->",
    "multi-line-comment": "<!--\n/assistant not-duplicate\n-->",
    "pre": "<pre>\n/assistant not-duplicate\n</pre>",
    "details": "<details>\n<summary>More</summary>\n\n/assistant not-duplicate\n\n</details>",
    "no-break-space": "\u00a0/assistant not-duplicate",
    "list-item": "- /assistant not-duplicate",
    "heading": "# /assistant not-duplicate",
}


@pytest.mark.parametrize("body", HIDDEN_OR_QUOTED.values(), ids=HIDDEN_OR_QUOTED.keys())
def test_a_hidden_or_quoted_command_does_not_count(body: str) -> None:
    assert not says_not_duplicate(body, WORD)
    assert learning_commands(body.replace("not-duplicate", "remember hidden"), WORD) == []


@pytest.mark.parametrize(
    "body",
    [
        "/assistant not-duplicate",
        "Thanks for the notice.\n/assistant not-duplicate",
        "> a quote\n\n/assistant not-duplicate",
        "<details>\n\nhidden\n\n</details>\n\n/assistant not-duplicate",
        "  /assistant not-duplicate\r\n",
    ],
)
def test_a_command_shown_on_its_own_line_counts(body: str) -> None:
    assert says_not_duplicate(body, WORD)


def test_a_command_is_read_only_near_the_start_of_its_paragraph() -> None:
    """Rendering a paragraph costs what its writer makes it cost: a command is read only in a
    paragraph of at most 1,000 characters, and in the first 8 paragraphs that hold one."""
    long_line = "[a](" * 300
    assert not says_not_duplicate(f"{long_line}\n/assistant not-duplicate", WORD)
    assert says_not_duplicate(f"{long_line}\n\n/assistant not-duplicate", WORD)
    assert says_not_duplicate(f"{'word ' * 300}\n\n/assistant not-duplicate", WORD)
    eight = "\n\n".join(f"/assistant remember rule {n}" for n in range(8))
    assert len(learning_commands(eight, WORD)) == 8
    assert learning_commands(eight + "\n\n/assistant remember rule 8", WORD) == learning_commands(eight, WORD)


def test_a_command_line_carried_into_a_code_span_or_a_title_does_not_count() -> None:
    assert not says_not_duplicate("Run `this\n/assistant not-duplicate\n` later", WORD)
    assert not says_not_duplicate('See [a](https://x "\n/assistant not-duplicate\n")', WORD)
    assert not says_not_duplicate("![alt\n/assistant not-duplicate](https://x/a.png)", WORD)
    assert says_not_duplicate("See [the notice](https://x)\n/assistant not-duplicate", WORD)
