"""`learnings` answers what sends no request and reads no learning without loading what it does not need.

gql, aiohttp and graphql-core (the network stack), asyncio and pydantic are most of a command's
start-up time. `--help`, `--version` and a usage or configuration error found before any work
load none of them; the local commands never load the network stack. Checked in a fresh
interpreter with `-X importtime`, which names every module imported.
"""

from __future__ import annotations

import argparse
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from learnings.cli import build_parser
from tests.corrections.commands.test_lazy_start import NETWORK, imported

# What a command that sends no request and validates nothing must not import.
HEAVY = frozenset({*NETWORK, "asyncio", "pydantic", "pydantic_core"})


def _subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*path, name)
                yield from _subcommands(sub, (*path, name))


SUBCOMMANDS = list(_subcommands(build_parser()))


def _heavy(arguments: list[str], cwd: Path, status: int) -> tuple[set[str], str]:
    """What of HEAVY `learnings <arguments>` imported, and its output; it must exit with `status`."""
    code, modules, output = imported(arguments, cwd, program="learnings")
    assert code == status, output
    assert "learnings" in modules  # the command ran and importtime saw it
    return modules & HEAVY, output


def test_every_subcommand_is_walked() -> None:
    assert {("list",), ("render",), ("sync",), ("memory",), ("memory", "write")} <= set(SUBCOMMANDS)


@pytest.mark.parametrize(
    "arguments",
    [["--help"], ["--version"], *[[*path, "--help"] for path in SUBCOMMANDS]],
    ids=" ".join,
)
def test_help_and_version_load_nothing_heavy(arguments: list[str], tmp_path: Path) -> None:
    heavy, _output = _heavy(arguments, tmp_path, 0)
    assert not heavy, f"learnings {' '.join(arguments)} imported {sorted(heavy)}"


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["list", "--config", "missing.toml"], "missing.toml: configuration file not found"),
        (["render", "--config", "bad.toml"], "bad.toml: not valid TOML"),
        (["add", "a rule", "--config", "missing.toml"], "missing.toml: configuration file not found"),
        (["list", "--file", "missing.jsonl"], "missing.jsonl: learnings file not found"),
        (["show", "l_x7c2", "--file", "missing.jsonl"], "missing.jsonl: learnings file not found"),
        (["import", "missing.jsonl", "--file", "team.jsonl"], "missing.jsonl: learnings file not found"),
        (["edit", "l_x7c2"], "edit: give --text, --paths or both"),
        (["sync", "--repo", "octo/demo"], "no token"),
        (["memory", "show", "--pr", "20", "--repo", "octo/demo"], "no token"),
        (["sync", "--repo", "not a repository"], "not a repository"),
    ],
)
def test_usage_errors_before_any_work_load_nothing_heavy(
    arguments: list[str], said: str, tmp_path: Path
) -> None:
    (tmp_path / "bad.toml").write_text("[learnings\nfile = 'team.jsonl'\n", encoding="utf-8")
    heavy, output = _heavy(arguments, tmp_path, 4 if said == "no token" else 2)  # gh's statuses
    assert said in output
    assert not heavy, f"learnings {' '.join(arguments)} imported {sorted(heavy)}"


def test_reading_the_store_does_load_pydantic(tmp_path: Path) -> None:
    """The checks above can fail: a command that validates learnings loads pydantic (and only that)."""
    (tmp_path / "team.jsonl").write_text("", encoding="utf-8")
    heavy, _output = _heavy(["export", "--file", "team.jsonl"], tmp_path, 0)
    assert heavy == {"pydantic", "pydantic_core"}


def test_the_local_commands_load_no_network_stack(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    commands = [
        ["add", "Integration tests need TEST_DB_URL", "--paths", "test/**"],
        ["render", "--paths", "test/a.py"],
    ]
    for arguments in commands:
        status, modules, _output = imported(list(arguments), tmp_path, program="learnings")
        assert status == 0, arguments
        assert "learnings" in modules  # the command ran and importtime saw it
        assert not modules & set(NETWORK), f"learnings {arguments} imported {sorted(modules & set(NETWORK))}"
