"""`learnings` from any subfolder, show, edit, an empty list, and what `add` did to an existing one.

The first test runs the console script (a process); the others its `main` in this process."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.commandline.conftest import Command, git_checkout

STORE = Path(".github/assistant/learnings.jsonl")


def test_from_a_subfolder_the_file_is_the_repositorys(cli: Command, tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    inner = git_checkout(root)
    added = cli("learnings", "add", "Use bound parameters", "--paths", "src/db/**", cwd=inner)
    assert added.status == 0, added.err
    assert (root / STORE).is_file()
    assert not (inner / ".github").exists() and not (root / "src" / ".github").exists()
    listed = cli("learnings", "list", cwd=inner)
    assert added.out.strip() in listed.out and "Use bound parameters" in listed.out
    # The configuration is the repository's too.
    (root / ".github" / "assistant.toml").write_text(
        '[learnings]\nfile = "notes/l.jsonl"\n', encoding="utf-8"
    )
    again = cli("learnings", "add", "Another rule", cwd=inner)
    assert again.status == 0 and (root / "notes" / "l.jsonl").is_file()


def test_list_of_an_empty_store_says_no_learnings(in_process: Command, tmp_path: Path) -> None:
    git_checkout(tmp_path / "checkout")
    result = in_process("learnings", "list", cwd=tmp_path / "checkout")
    assert (result.status, result.out) == (0, "")
    assert result.err == f"no learnings in {STORE}\n"


def test_show_prints_every_field(in_process: Command, tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    git_checkout(root)
    learning_id = in_process(
        "learnings", "add", "Integration tests need TEST_DB_URL", "--paths", "src/**", "--issue", "142",
        "--comment", "2400001856", "--accepted-by", "alice", cwd=root,
    ).out.strip()  # fmt: skip
    shown = in_process("learnings", "show", learning_id, cwd=root)
    assert shown.status == 0
    lines = shown.out.splitlines()
    assert lines[0] == f"id:       {learning_id}"
    assert "text:     Integration tests need TEST_DB_URL" in lines
    assert "paths:    src/**" in lines
    assert "source:   issue #142, comment 2400001856, accepted by @alice" in lines
    as_json = json.loads(in_process("learnings", "show", learning_id, "--json", cwd=root).out)
    assert as_json["id"] == learning_id and as_json["paths"] == ["src/**"]
    unknown = in_process("learnings", "show", "l_zzzz", cwd=root)
    assert unknown.status == 2 and unknown.err == f"learnings: {STORE}: unknown learning id `l_zzzz`\n"


def test_edit_changes_only_that_line(in_process: Command, tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    git_checkout(root)
    first = in_process("learnings", "add", "First rule", cwd=root).out.strip()
    second = in_process("learnings", "add", "Second rule", "--paths", "docs/**", cwd=root).out.strip()
    (root / STORE).write_text((root / STORE).read_text(encoding="utf-8") + "not json\n", encoding="utf-8")
    before = (root / STORE).read_text(encoding="utf-8").splitlines()
    edited = in_process("learnings", "edit", second, "--text", "Second rule, reworded", "--paths", "docs/**", "src/**",
                 cwd=root)  # fmt: skip
    assert (edited.status, edited.out) == (0, f"{second}\n"), edited.err
    after = (root / STORE).read_text(encoding="utf-8").splitlines()
    assert after[0] == before[0] and after[2] == before[2] == "not json"
    changed = json.loads(after[1])
    assert (changed["id"], changed["text"], changed["paths"]) == (
        second,
        "Second rule, reworded",
        ["docs/**", "src/**"],
    )
    general = in_process("learnings", "edit", second, "--paths", cwd=root)
    assert general.status == 0
    assert json.loads((root / STORE).read_text(encoding="utf-8").splitlines()[1])["scope"] == "repo"
    clash = in_process("learnings", "edit", second, "--text", "FIRST rule!", cwd=root)
    assert clash.status == 2 and f"learning `{first}` already has that text" in clash.err
    nothing = in_process("learnings", "edit", second, cwd=root)
    assert nothing.status == 2 and "give --text, --paths or both" in nothing.err


def test_add_of_a_known_text_says_what_happened_to_its_paths(in_process: Command, tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    git_checkout(root)
    scoped = in_process("learnings", "add", "Use pytest -x", "--paths", "src/**", cwd=root).out.strip()
    merged = in_process("learnings", "add", "use PYTEST -x!", "--paths", "test/**", cwd=root)
    assert merged.out.strip() == scoped
    assert merged.err == (
        f"learnings: updated {scoped}, which already has this text (no new learning); "
        "paths merged: src/**, test/**\n"
    )
    general = in_process("learnings", "add", "Keep commits small", cwd=root).out.strip()
    kept_general = in_process("learnings", "add", "keep commits small", "--paths", "src/**", cwd=root)
    assert kept_general.err == (
        f"learnings: updated {general}, which already has this text (no new learning); it is already "
        "general (it applies to every path), so the paths given were not added\n"
    )


def test_the_github_commands_read_the_repositorys_configuration_from_a_subfolder(
    in_process: Command, tmp_path: Path
) -> None:
    """`sync` and `memory` take the checkout's configuration as the local commands do, not the
    current folder's (which would silently fall back to the defaults)."""
    root = tmp_path / "checkout"
    inner = git_checkout(root)
    (root / ".github").mkdir(exist_ok=True)
    (root / ".github" / "assistant.toml").write_text("[learnings]\nfiel = 'x.jsonl'\n", encoding="utf-8")
    for argv in (("sync", "--repo", "octo/demo"), ("memory", "show", "--pr", "7", "--repo", "octo/demo")):
        result = in_process("learnings", *argv, env={"GH_TOKEN": "t"}, cwd=inner)
        assert result.status == 2, result.err
        assert "assistant.toml" in result.err and "fiel" in result.err
        assert len(result.err.strip().splitlines()) == 1


def test_list_columns_are_aligned(in_process: Command, tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    git_checkout(root)
    (root / "src" / "api").mkdir(parents=True)
    (root / "src" / "api" / "users.py").write_text("", encoding="utf-8")
    in_process("learnings", "add", "Short", "--paths", "src/**", cwd=root)
    in_process("learnings", "add", "Longer paths", "--paths", "src/api/**", "src/api/users.py", cwd=root)
    in_process("learnings", "add", "Everywhere", cwd=root)
    listed = in_process("learnings", "list", cwd=root)
    assert listed.status == 0, listed.err
    lines = listed.out.splitlines()
    texts = [
        line.index(text) for line, text in zip(lines, ["Short", "Longer paths", "Everywhere"], strict=True)
    ]
    dates = [re.search(r"\d{4}-\d\d-\d\dT", line).start() for line in lines]  # type: ignore[union-attr]
    assert len(set(texts)) == 1 and len(set(dates)) == 1, lines
