"""The local learnings file: found from the checkout's top folder, read exactly, one-line errors naming it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from commandline.usage import UsageError
from learnings.store.file import StoreFile, load, locate, read_text, save


def test_the_default_file_is_found_from_the_top_folder_of_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    inner = tmp_path / "src" / "deep"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)
    found = locate(None, None)
    assert found == StoreFile(Path("../../.github/assistant/learnings.jsonl"), named=False)
    assert locate("mine.jsonl", None) == StoreFile(Path("mine.jsonl"), named=True)


def test_a_missing_named_file_is_an_error_and_a_missing_default_is_empty(tmp_path: Path) -> None:
    missing = tmp_path / "none.jsonl"
    with pytest.raises(UsageError, match=r"none\.jsonl: learnings file not found$"):
        load(StoreFile(missing, named=True), missing_is_empty=False)
    assert load(StoreFile(missing, named=True), missing_is_empty=True)[0] == ""
    assert load(StoreFile(missing, named=False), missing_is_empty=False)[0] == ""


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"\xff\xfe", r"not UTF-8 text \(byte 0\)$"), (None, r"is a directory, not a learnings file$")],
)
def test_an_unreadable_file_is_one_line_naming_it(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "learnings.jsonl"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    with pytest.raises(UsageError, match=message) as raised:
        read_text(path)
    assert str(raised.value).startswith(f"{path}: ")


def test_the_text_is_read_and_kept_as_stored(tmp_path: Path) -> None:
    path = tmp_path / "learnings.jsonl"
    text = '{"v": 1, "broken\r\n'
    path.write_bytes(text.encode("utf-8"))
    original, loaded = load(StoreFile(path, named=True), missing_is_empty=False)
    assert original == text
    assert loaded.learnings == ()
    assert len(loaded.warnings) == 1
    save(StoreFile(path, named=True), original, loaded.learnings)
    assert path.read_bytes() == text.encode("utf-8")


@pytest.mark.parametrize("named", [True, False])
def test_the_file_gets_its_folder_and_a_failed_write_is_one_line_naming_it(
    tmp_path: Path, named: bool
) -> None:
    path = tmp_path / ".github" / "assistant" / "learnings.jsonl"
    save(StoreFile(path, named=named), "", [])
    assert path.read_text(encoding="utf-8") == ""
    (tmp_path / "blocked").write_text("a file where the folder should be\n", encoding="utf-8")
    blocked = tmp_path / "blocked" / "learnings.jsonl"
    with pytest.raises(UsageError, match=r"blocked/learnings\.jsonl: cannot be written: ") as raised:
        save(StoreFile(blocked, named=named), "", [])
    assert "\n" not in str(raised.value)
