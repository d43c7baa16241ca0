"""The `learnings` command on a local file: outputs, exit codes and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from assistant.config import Config
from corrections.read.outcome import ReadOutcome
from corrections.render.context import render_learnings
from learnings.cli import main
from learnings.prompt.budget import LEARNINGS_PROMPT_CHARS
from learnings.store.jsonl import parse_jsonl

DEFAULT = Path(".github/assistant/learnings.jsonl")
Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """Run the command in a fresh git checkout; returns (exit status, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q"], check=True)
    for name in ["src/api/users.py", "test/test_api.py", "docs/guide.md", "README.md"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    subprocess.run(["git", "add", "."], check=True)

    def invoke(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        captured = capsys.readouterr()
        return status, captured.out, captured.err

    return invoke


def test_add_prints_the_id_and_writes_the_default_file(run: Run) -> None:
    status, out, err = run(
        "add", "Integration tests need TEST_DB_URL", "--paths", "test/**", "--issue", "142"
    )
    assert (status, err) == (0, "")
    learning_id = out.strip()
    assert learning_id.startswith("l_")
    (line,) = DEFAULT.read_text(encoding="utf-8").splitlines()
    stored = json.loads(line)
    assert stored["id"] == learning_id
    assert stored["paths"] == ["test/**"]
    assert stored["source"] == {"issue": 142}


def test_adding_the_same_text_updates_it(run: Run) -> None:
    first = run("add", "Use pytest -x", "--paths", "src/**")[1]
    status, out, err = run("add", "use PYTEST  -x!", "--paths", "test/**")
    assert (status, out) == (0, first)
    assert "updated" in err
    (line,) = DEFAULT.read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["paths"] == ["src/**", "test/**"]


def test_list_flags_stale_learnings(run: Run) -> None:
    live = run("add", "api rule", "--paths", "src/api/**")[1].strip()
    gone = run("add", "legacy rule", "--paths", "legacy/**")[1].strip()
    general = run("add", "general rule")[1].strip()
    status, out, _err = run("list")
    assert status == 0
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()}
    assert rows == {live: "active", gone: "stale", general: "active"}
    status, out, _err = run("list", "--json")
    assert {row["id"]: row["stale"] for row in json.loads(out)} == {live: False, gone: True, general: False}


def test_remove_retires_and_keeps_the_line(run: Run) -> None:
    learning_id = run("add", "old rule")[1].strip()
    run("add", "other rule")
    before = DEFAULT.read_text(encoding="utf-8").splitlines()
    status, out, _err = run("remove", learning_id)
    assert (status, out.strip()) == (0, learning_id)
    after = DEFAULT.read_text(encoding="utf-8").splitlines()
    assert json.loads(after[0])["status"] == "retired"
    assert after[1] == before[1]
    assert "retired" in run("list")[1]


def test_render_prints_the_block_for_changed_paths(run: Run) -> None:
    run("add", "api rule", "--paths", "src/api/**")
    run("add", "legacy rule", "--paths", "legacy/**")
    run("add", "docs rule", "--paths", "docs/**")
    status, out, _err = run("render", "--paths", "src/api/users.py")
    assert status == 0
    assert out.startswith("## Team learnings\n")
    assert '"api rule"' in out
    assert "docs rule" not in out
    assert "legacy rule" not in out
    status, out, _err = run("render")
    assert "1 stale learning left out" in out
    assert '"docs rule"' in out


def test_render_uses_max_prompt_entries_from_the_config(run: Run, tmp_path: Path) -> None:
    config = tmp_path / "assistant.toml"
    config.write_text("[learnings]\nmax_prompt_entries = 1\nfile = 'team.jsonl'\n", encoding="utf-8")
    run("add", "first rule", "--config", str(config))
    run("add", "second rule", "--config", str(config))
    assert (tmp_path / "team.jsonl").exists()
    status, out, _err = run("render", "--config", str(config))
    assert status == 0
    assert "1 more learning not shown (budget: 1 entries" in out


def test_render_previews_the_learnings_md_the_action_writes(run: Run) -> None:
    # Sixteen long learnings: more than 4,000 characters, more than the prompt's budget.
    for n in range(16):
        run("add", f"rule {n:02}: " + "keep the retry loop bounded " * 16)
    status, out, _err = run("render")
    store = parse_jsonl(DEFAULT.read_text(encoding="utf-8"), source=str(DEFAULT))
    outcome = ReadOutcome(repository="octo/demo", learnings=store)
    assert status == 0
    assert out == render_learnings(outcome, Config(), ())[0]
    assert f"(budget: 20 entries, {LEARNINGS_PROMPT_CHARS} characters)" in out


def test_export_and_import_merge_with_deduplication(run: Run, tmp_path: Path) -> None:
    run("add", "shared rule", "--paths", "src/**")
    run("add", "only mine")
    other = tmp_path / "other.jsonl"
    run("add", "Shared rule.", "--paths", "test/**", "--file", str(other))
    run("add", "only theirs", "--file", str(other))
    status, out, err = run("import", str(other))
    assert (status, err) == (0, "")
    assert "1 added, 1 updated" in out
    status, out, _err = run("export")
    exported = [json.loads(line) for line in out.splitlines()]
    assert [row["text"] for row in exported] == ["shared rule", "only mine", "only theirs"]
    assert exported[0]["paths"] == ["src/**", "test/**"]
    status, out, _err = run("import", str(other))
    assert "0 added, 0 updated" in out


def test_skipped_lines_warn_and_survive_edits(run: Run) -> None:
    DEFAULT.parent.mkdir(parents=True)
    DEFAULT.write_text('not json\n{"v": 9}\n', encoding="utf-8")
    status, _out, err = run("add", "a rule")
    assert status == 0
    assert f"warning: {DEFAULT}:1: not valid JSON, skipped" in err
    assert f"warning: {DEFAULT}:2: unknown version `v` = 9, skipped" in err
    assert DEFAULT.read_text(encoding="utf-8").startswith('not json\n{"v": 9}\n{"v": 1,')


@pytest.mark.parametrize("command", ["list", "export", "render"])
def test_a_line_nested_too_deeply_is_skipped_with_a_warning(run: Run, command: str) -> None:
    """1,000 `[` on one line made `learnings list` exit 1 with a traceback."""
    DEFAULT.parent.mkdir(parents=True)
    DEFAULT.write_text("[" * 1_000 + "\n" + '{"a": ' * 100_000 + "\n", encoding="utf-8")
    status, _out, err = run(command)
    assert status == 0
    assert f"warning: {DEFAULT}:1: nested too deeply, skipped" in err
    assert f"warning: {DEFAULT}:2: nested too deeply, skipped" in err
    assert "Traceback" not in err


def test_a_missing_default_store_is_empty(run: Run) -> None:
    assert run("list") == (0, "", f"no learnings in {DEFAULT}\n")
    status, out, _err = run("render")
    assert status == 0
    assert "has not recorded any learnings" in out
    assert run("export") == (0, "", "")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["list", "--file", "missing.jsonl"], "learnings: missing.jsonl: learnings file not found\n"),
        (["export", "--file", "missing.jsonl"], "learnings: missing.jsonl: learnings file not found\n"),
        (["render", "--file", "missing.jsonl"], "learnings: missing.jsonl: learnings file not found\n"),
        (["import", "missing.jsonl"], "learnings: missing.jsonl: learnings file not found\n"),
        (
            ["add", "text", "--paths", "src/[api"],
            "learnings: --paths: bad glob `src/[api`: unclosed `[`\n",
        ),
        (["remove", "l_zzzz"], f"learnings: {DEFAULT}: unknown learning id `l_zzzz`\n"),
        (["add", "!!!"], f"learnings: {DEFAULT}: the text of a learning needs letters or digits\n"),
        (
            ["add", "text", "--category", "bad category"],
            f"learnings: {DEFAULT}: `category`: String should match",
        ),
        (["add", "text", "--kind", "suppression"], f"learnings: {DEFAULT}: a suppression needs a category"),
        (
            ["add", "text", "--accepted-by", "no such login!"],
            "learnings: source: `accepted_by`: String should",
        ),
        (["list", "--config", "none.toml"], "learnings: none.toml: configuration file not found\n"),
    ],
)
def test_errors_are_one_line_naming_the_file_and_exit_2(run: Run, argv: list[str], message: str) -> None:
    status, out, err = run(*argv)
    assert (status, out) == (2, "")
    assert err.startswith(message)
    assert err.count("\n") == 1


def test_a_bad_config_key_is_named(run: Run, tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("[learnings]\nfiel = 'x'\n", encoding="utf-8")
    assert run("list", "--config", "bad.toml") == (
        2,
        "",
        "learnings: bad.toml:2: unknown key learnings.fiel; did you mean file?\n",
    )


def test_outside_git_staleness_is_not_looked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "plain" / "learnings.jsonl"
    store.parent.mkdir()
    assert main(["add", "rule", "--paths", "nowhere/**", "--file", str(store)]) == 0
    assert main(["list", "--file", str(store)]) == 0
    captured = capsys.readouterr()
    assert "  active  " in captured.out
    assert "stale learnings not looked for" in captured.err


def test_the_console_entry_point_exits_with_the_status(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "learnings.cli", "list", "--file", str(tmp_path / "none.jsonl")],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert result.returncode == 2
    assert result.stderr == f"learnings: {tmp_path / 'none.jsonl'}: learnings file not found\n"


def test_remove_rewrites_only_its_line_byte_for_byte(run: Run) -> None:
    first = run("add", "first rule")[1].strip()
    run("add", "second rule")
    original = DEFAULT.read_bytes()
    lines = original.split(b"\n")
    crafted = b"\r\n".join([lines[0], b"{broken", lines[1]]) + b"\r\n"
    DEFAULT.write_bytes(crafted)
    status, _out, err = run("remove", first)
    assert status == 0
    assert ":2: not valid JSON, skipped" in err
    new_first, broken, second, end = DEFAULT.read_bytes().split(b"\r\n")
    assert b'"status": "retired"' in new_first
    assert (broken, second, end) == (b"{broken", lines[1], b"")
