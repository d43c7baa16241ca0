"""Every command's --help: where the token comes from, the defaults, an example; every option explained."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from corrections.commands.cli import _parser as corrections_parser
from learnings.cli import build_parser as learnings_parser
from tests.commandline.conftest import Command


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))


def _every_command() -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    return [
        *_commands(corrections_parser(), ("corrections",)),
        *_commands(learnings_parser(), ("learnings",)),
    ]


def test_the_walk_reaches_every_command() -> None:
    names = {" ".join(path) for path, _ in _every_command()}
    assert {"corrections read", "corrections explain", "learnings edit", "learnings memory show"} <= names


@pytest.mark.parametrize(
    ("path", "parser"),
    _every_command(),
    ids=lambda value: " ".join(value) if isinstance(value, tuple) else "",
)
def test_every_argument_and_option_has_help(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
    missing = [
        action.dest
        for action in parser._actions
        if not (action.help and action.help.strip()) and action.help is not argparse.SUPPRESS
    ]
    assert missing == [], f"{' '.join(path)}: no help for {missing}"
    assert parser.epilog and "Example" in parser.epilog, f"{' '.join(path)}: no example"


def _leaves() -> list[tuple[str, ...]]:
    commands = _every_command()
    parents = {path[:-1] for path, _ in commands}
    return [path for path, _ in commands if path not in parents]


NO_TOKEN = {
    ("corrections", "demo"),
    ("corrections", "action"),
    ("corrections", "prompt"),
    ("corrections", "answer"),
    ("corrections", "marker"),
}


@pytest.mark.parametrize("path", _leaves(), ids=" ".join)
def test_help_of_every_command_through_the_console_script(cli: Command, path: tuple[str, ...]) -> None:
    result = cli(path[0], *path[1:], "--help")
    assert result.status == 0 and result.err == ""
    text = " ".join(result.out.split())
    assert "Example:" in result.out or "Examples:" in result.out
    local = path[0] == "learnings" and path[1] not in {"sync", "memory"}
    if not local and path not in NO_TOKEN:
        assert "GITHUB_TOKEN, else GH_TOKEN" in text


def test_read_help_shows_the_defaults(cli: Command) -> None:
    text = " ".join(cli("corrections", "read", "--help").out.split())
    assert "(default: corrections-context)" in text
    assert "(default: 45 s)" in text
    assert "(default: https://api.github.com/graphql" in text
    assert "default: the `origin` remote of the git checkout" in text
