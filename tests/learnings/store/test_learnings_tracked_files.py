"""Staleness against the files git tracks: asked of git only when a learning has paths, None outside git."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from learnings.rules.model import Learning
from learnings.store.tracked_files import stale_in_checkout, tracked_paths

MakeLearning = Callable[..., Learning]


def _checkout(root: Path, *files: str) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x\n", encoding="utf-8")
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)


def test_tracked_paths_are_named_from_the_top_folder(tmp_path: Path) -> None:
    _checkout(tmp_path, "src/api/users.py", "README.md")
    (tmp_path / "untracked.py").write_text("x\n", encoding="utf-8")
    store = tmp_path / "src" / "not-yet" / "learnings.jsonl"
    assert sorted(tracked_paths(store) or []) == ["README.md", "src/api/users.py"]


def test_stale_learnings_are_those_no_tracked_file_matches(
    tmp_path: Path, make_learning: MakeLearning
) -> None:
    _checkout(tmp_path, "src/api/users.py")
    learnings = [
        make_learning("l_live0", "live", paths=["src/**"]),
        make_learning("l_gone0", "gone", paths=["lib/**"]),
        make_learning("l_general", "general"),
    ]
    assert stale_in_checkout(tmp_path / "learnings.jsonl", learnings) == frozenset({"l_gone0"})


def test_outside_git_staleness_is_unknown_unless_no_learning_has_paths(
    tmp_path: Path, make_learning: MakeLearning
) -> None:
    store = tmp_path / "learnings.jsonl"
    assert tracked_paths(store) is None
    assert stale_in_checkout(store, [make_learning("l_path0", "rule", paths=["lib/**"])]) is None
    assert stale_in_checkout(store, [make_learning("l_general", "general")]) == frozenset()
