"""Each subcommand's `run(options)`, called with its frozen options record and no flags parsed
(as cli/cli tests a command's run function): the parsing is argparse's, tested through `main`
elsewhere; what a command does with its options is tested here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.config import Config
from commandline.arguments import RepositoryOptions
from commandline.usage import UsageError
from corrections.commands import (
    action,
    answer,
    backtest,
    demo,
    explain,
    init,
    marker,
    prompt,
    quality,
    read,
    sync,
)
from corrections.commands.cli import SUBCOMMANDS
from corrections.read.options import ReadOptions
from corrections.rules.analysis_marker import analysis_marker
from learnings.commands import sync as learnings_sync
from learnings.commands.remote import RemoteOptions
from tests.emulation import Emulators

TOKEN = "run-token"


@pytest.fixture
def context(tmp_path: Path, emulate: Emulators, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`corrections read`'s run on the demo repository: the context folder it wrote."""
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    server = emulate()
    out = tmp_path / "context"
    options = read.ReadCommandOptions(
        read=ReadOptions(owner="octo", name="demo", config=Config(), api_url=server.url),
        out=out,
        paths=("src/demo/sync/engine.py",),
    )
    assert read.run(options) == 0
    return out


def _shared(emulate: Emulators, monkeypatch: pytest.MonkeyPatch) -> RepositoryOptions:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    return RepositoryOptions(api_url=emulate().url, repo="octo/demo")


def test_every_subcommand_module_has_a_test_of_its_run_here() -> None:
    tested = {name.removeprefix("test_").split("_")[0] for name in globals() if name.startswith("test_")}
    assert set(SUBCOMMANDS) <= tested


def test_read_writes_the_context_folder(context: Path) -> None:
    assert (context / "corrections.md").is_file()
    assert json.loads((context / "corrections.json").read_text(encoding="utf-8"))["v"] == 1


def test_demo_reads_the_bundled_repository_offline(tmp_path: Path) -> None:
    assert demo.run(demo.DemoOptions(out=tmp_path / "demo")) == 0
    assert (tmp_path / "demo" / "prompt.md").is_file()


def test_action_takes_its_environment_from_the_options(tmp_path: Path) -> None:
    environ = {"INPUT_MODE": "commands", "RUNNER_TEMP": str(tmp_path), "GITHUB_OUTPUT": str(tmp_path / "out")}
    assert action.run(action.ActionOptions(environ=environ)) == 0
    assert "skipped=true" in (tmp_path / "out").read_text(encoding="utf-8")
    assert (tmp_path / "correction-reader-bin" / "corrections").is_file()


def test_quality_writes_the_months_files(
    tmp_path: Path, emulate: Emulators, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = quality.QualityOptions(
        shared=_shared(emulate, monkeypatch), month="2026-11", out=tmp_path / "q"
    )
    assert quality.run(options) == 0
    assert {path.name for path in (tmp_path / "q").iterdir()} == {"quality.md", "quality.json", "quality.svg"}
    with pytest.raises(UsageError, match="--budget: only with --month"):
        quality.run(quality.QualityOptions(shared=options.shared, budget=10))


def test_explain_says_why_one_issue_taught_what_it_did(
    emulate: Emulators, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert explain.run(explain.ExplainOptions(number=41, shared=_shared(emulate, monkeypatch))) == 0
    assert capsys.readouterr().out.startswith("#41 ")


def test_backtest_refuses_a_window_out_of_bounds_before_reading(
    emulate: Emulators, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = _shared(emulate, monkeypatch)
    with pytest.raises(UsageError, match="--last: must be between 1 and"):
        backtest.run(backtest.BacktestOptions(shared=shared, model="true", last=0))
    with pytest.raises(UsageError, match="--timeout"):
        backtest.run(backtest.BacktestOptions(shared=shared, model="true", timeout=0))


def test_init_needs_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="init: run it in a git checkout"):
        init.run(init.InitOptions(repo="octo/demo"))


def test_sync_needs_a_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.chdir(tmp_path)  # no checkout: no `origin` remote to take the repository from
    given = learnings_sync.SyncOptions(remote=RemoteOptions(api_url="http://127.0.0.1:9/graphql"))
    with pytest.raises(UsageError):
        sync.run(sync.SyncOptions(learnings=given, min_issues=2))


def test_prompt_assembles_the_folder_within_its_budget(context: Path, tmp_path: Path) -> None:
    out = tmp_path / "prompt.md"
    assert prompt.run(prompt.PromptOptions(context=context, issue=61, out=out)) == 0
    assert "corrections" in out.read_text(encoding="utf-8")
    assert prompt.run(prompt.PromptOptions(context=context, max_chars=10, out=out)) == 1


def test_answer_writes_the_comment_and_prints_the_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "context"
    folder.mkdir()
    index = {"v": 1, "window": [12], "corrections": [], "vocabulary": ["bug", "crash"]}
    (folder / "corrections.json").write_text(json.dumps(index), encoding="utf-8")
    response = tmp_path / "answer.json"
    response.write_text(json.dumps({"labels": ["crash", "bug"], "analysis": "See #12."}), encoding="utf-8")
    options = answer.AnswerOptions(response=response, issue=61, out=tmp_path / "comment.md", context=folder)
    assert answer.run(options) == 0
    assert capsys.readouterr().out == "bug,crash\n"
    assert (tmp_path / "comment.md").read_text(encoding="utf-8").startswith("See #12.")


def test_marker_prints_the_line_and_refuses_an_empty_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert marker.run(marker.MarkerOptions(labels=("bug,crash",), duplicate_of=12)) == 0
    assert capsys.readouterr().out == analysis_marker(["bug", "crash"], 12) + "\n"
    assert marker.run(marker.MarkerOptions(labels=("bug,,crash",))) == 2
    assert "--labels: an empty label name" in capsys.readouterr().err
