"""`corrections read --out DIR` replaces what it writes and deletes only what an earlier run wrote.

Each command runs through its `main` in this process (what it does with the folder needs no
process of its own; the console scripts' processes are tests/commandline/test_cli_like_gh.py's)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corrections.render.output import MANIFEST
from emulator import Server
from tests.commandline.conftest import Command


@pytest.fixture
def cli(in_process: Command) -> Command:
    """`corrections ...` through `main(argv)`, as tests/commandline/conftest.py's `in_process`."""
    return in_process


def _read(cli: Command, demo_server: Server, out: Path, *extra: str) -> list[str]:
    result = cli("corrections", "read", "--repo", "octo/demo", "--api-url", demo_server.url, "--out", str(out), *extra,
                 env={"GITHUB_TOKEN": "t"})  # fmt: skip
    assert result.status == 0, result.err
    return sorted(path.name for path in (out / "issues").iterdir())


def _written(out: Path) -> tuple[list[int], list[int]]:
    """The window's issues and the horizon's (corrected issues older than the window) of corrections.json."""
    context = json.loads((out / "corrections.json").read_text(encoding="utf-8"))
    return context["window"], context["horizon"]


def test_files_it_did_not_write_are_never_deleted(cli: Command, demo_server: Server, tmp_path: Path) -> None:
    out = tmp_path / "ctx"
    (out / "issues").mkdir(parents=True)
    mine = {
        out / "issues" / "mynotes.md": "my notes\n",
        out / "issues" / "9999.md": "an issue file I wrote by hand\n",
        out / "README.txt": "what this folder is\n",
    }
    for path, text in mine.items():
        path.write_text(text, encoding="utf-8")
    first = _read(cli, demo_server, out)
    written = _written(out)
    assert written[1] == [9, 6]  # the corrected issues past the window are written too
    assert {f"{number}.md" for number in written[0] + written[1]} | {"mynotes.md", "9999.md"} == set(first)
    second = _read(cli, demo_server, out, "--max-analyzed", "2")
    narrow = _written(out)
    assert len(narrow[0]) == 2
    # The issues that left the window and its horizon are gone (this program wrote them); the others stay.
    assert set(second) == {f"{number}.md" for number in narrow[0] + narrow[1]} | {"mynotes.md", "9999.md"}
    for path, text in mine.items():
        assert path.read_text(encoding="utf-8") == text
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    assert "issues/mynotes.md" not in manifest["files"] and "corrections.md" in manifest["files"]


def test_learnings_md_of_an_earlier_run_goes_when_learnings_are_off(
    cli: Command, demo_server: Server, tmp_path: Path
) -> None:
    out = tmp_path / "ctx"
    _read(cli, demo_server, out)
    assert (out / "learnings.md").is_file()
    config = tmp_path / "off.toml"
    config.write_text("[learnings]\nenabled = false\n", encoding="utf-8")
    _read(cli, demo_server, out, "--config", str(config))
    assert not (out / "learnings.md").exists()


def test_a_manifest_cannot_delete_outside_the_folder(
    cli: Command, demo_server: Server, tmp_path: Path
) -> None:
    out = tmp_path / "ctx"
    out.mkdir()
    outside = tmp_path / "precious.txt"
    outside.write_text("keep\n", encoding="utf-8")
    (out / MANIFEST).write_text(
        json.dumps({"v": 1, "files": ["../precious.txt", str(outside), "issues/../../precious.txt"]}),
        encoding="utf-8",
    )
    _read(cli, demo_server, out)
    assert outside.read_text(encoding="utf-8") == "keep\n"


def test_a_committed_link_in_the_folder_cannot_delete_outside_it(
    cli: Command, demo_server: Server, tmp_path: Path
) -> None:
    # A hostile checkout commits `corrections-context/up -> ../../..` and a manifest naming a file
    # through it: the run must not delete (nor write) anything the link reaches.
    checkout = tmp_path / "a" / "b" / "checkout"
    out = checkout / "corrections-context"
    out.mkdir(parents=True)
    (out / "up").symlink_to(Path("..") / ".." / "..")
    outside = tmp_path / "a" / "notes.txt"
    outside.write_text("keep\n", encoding="utf-8")
    assert (out / "up" / "notes.txt").read_text(encoding="utf-8") == "keep\n"
    (out / MANIFEST).write_text(json.dumps({"v": 1, "files": ["up/notes.txt"]}), encoding="utf-8")
    result = cli("corrections", "read", "--repo", "octo/demo", "--api-url", demo_server.url, "--out", str(out),
                 env={"GITHUB_TOKEN": "t"})  # fmt: skip
    assert result.status == 0, result.err
    assert outside.read_text(encoding="utf-8") == "keep\n"
    assert "up/notes.txt" in result.err  # the manifest's entry is ignored, and said so
    assert "up/notes.txt" not in json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]


def test_a_committed_link_in_the_folder_is_never_written_through(
    cli: Command, demo_server: Server, tmp_path: Path
) -> None:
    # `issues -> elsewhere` (or `corrections.md -> ~/.bashrc`) would make the writer write outside --out.
    out = tmp_path / "ctx"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "issues").symlink_to(elsewhere)
    target = tmp_path / "bashrc"
    target.write_text("mine\n", encoding="utf-8")
    (out / "corrections.md").symlink_to(target)
    result = cli("corrections", "read", "--repo", "octo/demo", "--api-url", demo_server.url, "--out", str(out),
                 env={"GITHUB_TOKEN": "t"})  # fmt: skip
    assert list(elsewhere.iterdir()) == []
    assert target.read_text(encoding="utf-8") == "mine\n"
    assert result.status == 1
    assert f"{out / 'issues'}: a symbolic link, never followed" in result.err
    assert (out / "corrections.md").is_symlink()  # refused before anything was written


def test_a_committed_link_as_the_folder_itself_is_refused(cli: Command, tmp_path: Path) -> None:
    # The default --out is relative, inside the checkout: a checkout can commit it as a link.
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (checkout / "corrections-demo").symlink_to(elsewhere)
    result = cli("corrections", "demo", cwd=checkout)
    assert result.status == 1
    assert "corrections-demo: a symbolic link, never followed" in result.err
    assert list(elsewhere.iterdir()) == []


def test_the_prompt_never_reads_through_a_committed_link(
    cli: Command, demo_server: Server, tmp_path: Path
) -> None:
    # Learnings off: read writes no learnings.md, so a committed `learnings.md -> ~/.ssh/id_ed25519`
    # stayed, and `corrections prompt` copied the key into the prompt for the model.
    out = tmp_path / "ctx"
    out.mkdir()
    secret = tmp_path / "id_ed25519"
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n", encoding="utf-8")
    (out / "learnings.md").symlink_to(secret)
    config = tmp_path / "off.toml"
    config.write_text("[learnings]\nenabled = false\n", encoding="utf-8")
    _read(cli, demo_server, out, "--config", str(config))
    assert (out / "learnings.md").is_symlink()  # not ours: left alone
    result = cli("corrections", "prompt", "--context", str(out), "--out", str(tmp_path / "prompt.md"))
    assert result.status == 0, result.err
    assert "PRIVATE KEY" not in (tmp_path / "prompt.md").read_text(encoding="utf-8")
    assert "learnings.md: not a plain file (a link is never followed); left out" in result.err
