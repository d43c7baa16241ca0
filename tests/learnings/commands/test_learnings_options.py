"""Each `learnings` subcommand written one way: its flags become a frozen options record, and its
run works on that record, tested here without parsing a flag."""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
from dataclasses import replace
from pathlib import Path

import pytest

from assistant.config import Config
from commandline.usage import UsageError
from learnings.cli import SUBCOMMANDS, build_parser, subcommand
from learnings.commands import add, edit, export, list_, memory, remove, render, show, sync
from learnings.commands.local import LocalOptions
from learnings.commands.remote import RemoteOptions
from learnings.sync.recurring import Recurring

ROOT = Path(__file__).resolve().parents[3]
# The functions that read a parsed namespace: each command's options_from, and the options_from
# of the records its kind shares (LocalOptions, RemoteOptions).
READ_A_NAMESPACE = frozenset({"options_from"})


def _options(*argv: str) -> object:
    args = build_parser().parse(list(argv))
    return subcommand(args.command).options_from(args)


def test_every_subcommand_has_its_module_and_a_frozen_record() -> None:
    assert [subcommand(name).NAME for name in SUBCOMMANDS] == list(SUBCOMMANDS)
    assert len(SUBCOMMANDS) == 11
    for command in map(subcommand, SUBCOMMANDS):
        assert command.SUMMARY and command.DESCRIPTION and command.EXAMPLES
        options = {
            "memory": ("memory", "show", "--pr", "1"),
            "propose": ("propose", "--on", "1", "--text", "t"),
            "show": ("show", "l_x"),
            "edit": ("edit", "l_x"),
            "remove": ("remove", "l_x"),
            "add": ("add", "t"),
            "import": ("import", "f"),
        }.get(command.NAME, (command.NAME,))
        record = _options(*options)
        assert dataclasses.is_dataclass(record) and not isinstance(record, type)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, dataclasses.fields(record)[0].name, None)


def test_only_the_options_readers_see_a_namespace() -> None:
    """Below options_from, a command works on its record: no other function of learnings takes
    an argparse namespace."""
    readers = []
    for path in sorted((ROOT / "learnings").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
                if any(
                    a.annotation is not None and "Namespace" in ast.unparse(a.annotation) for a in arguments
                ):
                    readers.append(node.name)
    assert readers and set(readers) <= READ_A_NAMESPACE


def test_the_flags_become_the_record_a_test_would_write() -> None:
    assert _options(
        "add", "a text", "--paths", "src/**", "--issue", "3", "--file", "f.jsonl"
    ) == add.AddOptions(text="a text", paths=("src/**",), issue=3, local=LocalOptions(file="f.jsonl"))
    assert _options("edit", "l_x", "--paths") == edit.EditOptions(id="l_x", paths=(), local=LocalOptions())
    assert _options("edit", "l_x", "--text", "t") == edit.EditOptions(
        id="l_x", text="t", local=LocalOptions()
    )
    assert _options("render", "--max-entries", "2", "--config", "c.toml") == render.RenderOptions(
        local=LocalOptions(config="c.toml"), max_entries=2
    )
    assert _options("sync", "--repo", "octo/demo", "--budget", "50") == sync.SyncOptions(
        remote=RemoteOptions(repo="octo/demo"), budget=50
    )
    assert _options("memory", "write", "--pr", "#4", "--from", "m.json") == memory.MemoryOptions(
        remote=RemoteOptions(), action="write", pr=4, source="m.json"
    )


def test_the_local_commands_run_on_their_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    local = LocalOptions(file=str(tmp_path / "learnings.jsonl"))
    assert (
        add.run(add.AddOptions(text="Integration tests need TEST_DB_URL", paths=("test/**",), local=local))
        == 0
    )
    learning_id = capsys.readouterr().out.strip()
    assert edit.run(edit.EditOptions(id=learning_id, text="Integration tests need Docker", local=local)) == 0
    assert list_.run(list_.ListOptions(local=local, json=True)) == 0
    capsys.readouterr()
    assert show.run(show.ShowOptions(id=learning_id, local=local, json=True)) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["id"], shown["text"], shown["paths"]) == (
        learning_id,
        "Integration tests need Docker",
        ["test/**"],
    )
    assert render.run(render.RenderOptions(paths=("test/a.py",), max_entries=5, local=local)) == 0
    assert "Integration tests need Docker" in capsys.readouterr().out
    assert remove.run(remove.RemoveOptions(id=learning_id, local=local)) == 0
    capsys.readouterr()
    assert export.run(export.ExportOptions(local=local)) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "retired"


def test_a_record_that_asks_nothing_or_names_no_file_is_a_usage_error(tmp_path: Path) -> None:
    local = LocalOptions(file=str(tmp_path / "missing.jsonl"))
    with pytest.raises(UsageError, match="give --text, --paths or both"):
        edit.run(edit.EditOptions(id="l_x", local=local))
    with pytest.raises(UsageError, match=r"missing\.jsonl"):
        list_.run(list_.ListOptions(local=local))


def test_the_sync_checks_its_repository_before_anything_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad --repo answers from the record, before the token is looked for; the decisions of
    `corrections sync` ride in the record and are not asked for."""
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    monkeypatch.delenv("GH_TOKEN", raising=False)
    asked: list[str] = []

    def decisions(owner: str, name: str, token: str, config: Config) -> list[Recurring]:
        asked.append(owner)
        return []

    options = replace(sync.SyncOptions(remote=RemoteOptions(repo="not a repository")), recurring=decisions)
    with pytest.raises(UsageError, match="not a repository"):
        sync.run(options)
    assert asked == []


def test_corrections_sync_declares_the_learnings_sync_options() -> None:
    """`corrections sync` takes the same flags through learnings.commands.sync.add_arguments."""
    parser = argparse.ArgumentParser()
    sync.add_arguments(parser)
    flags = {option for action in parser._actions for option in action.option_strings}
    assert {"--config", "--repo", "--api-url", "--assistant-login", "--budget", "--max-pages"} <= flags
