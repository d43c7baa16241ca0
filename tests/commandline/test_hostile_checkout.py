"""A cloned repository is a stranger's: its configuration and its links cannot make `learnings` write elsewhere.

Each test plants what a hostile checkout can commit (a configuration, a symbolic link) and runs
the real command in it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.commandline.conftest import Command, git_checkout

STORE = Path(".github/assistant/learnings.jsonl")
LEARNING = (
    '{"v":1,"id":"l_abc123","scope":"repo","kind":"note","text":"Keep it","paths":[],"category":null,'
    '"source":{},"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z","status":"active"}\n'
)
# Every local command that writes the learnings file, and one that reads it: all use one lookup.
COMMANDS = [
    ("add", "x"),
    ("edit", "l_abc123", "--text", "y"),
    ("remove", "l_abc123"),
    ("import", "other.jsonl"),
    ("list",),
]


def _checkout(tmp_path: Path) -> Path:
    root = tmp_path / "home" / "clone"
    git_checkout(root)
    (root / "other.jsonl").write_text(LEARNING.replace("Keep it", "Other"), encoding="utf-8")
    return root


@pytest.mark.parametrize("argv", COMMANDS, ids=[argv[0] for argv in COMMANDS])
def test_a_configured_file_outside_the_checkout_is_a_configuration_error(
    cli: Command, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    root = _checkout(tmp_path)
    bashrc = tmp_path / "home" / ".bashrc"
    bashrc.write_text("export PATH\n", encoding="utf-8")
    (root / ".github").mkdir()
    (root / ".github" / "assistant.toml").write_text('[learnings]\nfile = "../.bashrc"\n', encoding="utf-8")
    result = cli("learnings", *argv, cwd=root)
    assert result.status == 2
    assert result.err == (
        "learnings: .github/assistant.toml:2: key `learnings.file`: must be a path relative to the "
        "repository's top folder, without `..` (got '../.bashrc')\n"
    )
    assert bashrc.read_text(encoding="utf-8") == "export PATH\n"


@pytest.mark.parametrize("argv", COMMANDS, ids=[argv[0] for argv in COMMANDS])
def test_a_learnings_file_that_is_a_link_is_never_read_nor_written(
    cli: Command, tmp_path: Path, argv: tuple[str, ...]
) -> None:
    # A committed `learnings.jsonl -> ~/.ssh/id_ed25519`: `add` used to copy the key into a tracked file.
    root = _checkout(tmp_path)
    secret = tmp_path / "home" / "id_ed25519"
    secret.write_text(LEARNING + "-----BEGIN OPENSSH PRIVATE KEY-----\n", encoding="utf-8")
    (root / STORE.parent).mkdir(parents=True)
    (root / STORE).symlink_to(secret)
    result = cli("learnings", *argv, cwd=root)
    assert result.status == 2
    assert result.err == (
        "learnings: key `learnings.file` (its default): .github/assistant/learnings.jsonl is a symbolic "
        "link in the checkout; a configured path must not be one (got '.github/assistant/learnings.jsonl')\n"
    )
    assert (root / STORE).is_symlink() and "Keep it" not in result.out
    assert secret.read_text(encoding="utf-8").endswith("PRIVATE KEY-----\n")


def test_a_link_on_the_way_to_the_configured_file_is_refused(cli: Command, tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".github").mkdir()
    (root / ".github" / "notes").symlink_to(elsewhere)
    (root / ".github" / "assistant.toml").write_text(
        '[assistant]\nlogin = "bot"\n\n[learnings]\nfile = ".github/notes/l.jsonl"\n', encoding="utf-8"
    )
    result = cli("learnings", "add", "x", cwd=root / "src")
    assert result.status == 2
    assert result.err.startswith(
        "learnings: ../.github/assistant.toml:5: key `learnings.file`: .github/notes is a"
    )
    assert list(elsewhere.iterdir()) == []


def test_a_file_inside_the_checkout_still_works(cli: Command, tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    (root / ".github").mkdir()
    (root / ".github" / "assistant.toml").write_text(
        '[learnings]\nfile = "notes/l.jsonl"\n', encoding="utf-8"
    )
    result = cli("learnings", "add", "x", cwd=root)
    assert result.status == 0, result.err
    assert (root / "notes" / "l.jsonl").is_file()


def test_learnings_list_never_runs_the_checkouts_fsmonitor(cli: Command, tmp_path: Path) -> None:
    # A checkout's .git/config naming `core.fsmonitor`: git ran it on `ls-files` (the stale check).
    root = _checkout(tmp_path)
    ran = tmp_path / "home" / "fsmonitor-ran"
    hook = root / "monitor.sh"
    hook.write_text(f"#!/bin/sh\ntouch {ran}\n", encoding="utf-8")
    hook.chmod(0o755)
    subprocess.run(["git", "-C", str(root), "config", "core.fsmonitor", str(hook)], check=True)
    (root / STORE.parent).mkdir(parents=True)
    # A learning with paths: only then is git asked which files it tracks.
    with_paths = LEARNING.replace('"scope":"repo"', '"scope":"path"').replace(
        '"paths":[]', '"paths":["src/**"]'
    )
    (root / STORE).write_text(with_paths, encoding="utf-8")
    subprocess.run(
        ["git", "-C", str(root), "add", "-A"],
        check=True,
        env={**os.environ, "GIT_CONFIG_PARAMETERS": "'core.fsmonitor'='false'"},
    )
    ran.unlink(missing_ok=True)
    result = cli("learnings", "list", cwd=root)
    assert result.status == 0 and "Keep it" in result.out
    assert not ran.exists()  # before: the checkout's program ran
