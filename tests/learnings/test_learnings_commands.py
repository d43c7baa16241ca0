"""Commands in comments: where they count, how `remember` reads its text and globs, what is refused."""

from __future__ import annotations

import pytest

from learnings.commands import CommandProblem, IgnoreRule, NotDuplicate, Remember, learning_commands

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
