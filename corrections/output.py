"""Writing the context folder: every file replaced atomically, and nothing deleted that this program did not write.

The folder may hold the maintainer's own files (`issues/mynotes.md`): they are never touched. To
remove what an earlier run wrote and this run did not (the issue that left the window, a
learnings.md when learnings are now off), the folder keeps a manifest, `MANIFEST`, of the files
the last run wrote. Only files named there are ever deleted. The manifest is widened to this
run's files before any of them is written and narrowed after the stale ones are gone, so a run
cut at any point leaves every file it wrote listed, and never deletes a file it did not write.
A folder written by a version without a manifest keeps its old files (they are not known to be
ours).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath

from assistant.files import write_atomic

MANIFEST = ".corrections-files.json"


def _safe(name: str) -> bool:
    """A relative path inside the folder (a manifest edited by hand cannot reach outside it)."""
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\\" not in name


def written_before(folder: Path) -> set[str]:
    """The files the last run says it wrote (relative, `/`-separated); empty without a readable manifest."""
    try:
        raw = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    files = raw.get("files") if isinstance(raw, dict) else None
    if not isinstance(files, list):
        return set()
    return {name for name in files if isinstance(name, str) and _safe(name) and name != MANIFEST}


def _write_manifest(folder: Path, names: Iterable[str]) -> None:
    write_atomic(folder / MANIFEST, json.dumps({"v": 1, "files": sorted(names)}, indent=1) + "\n")


def write_context(folder: Path, files: Mapping[str, str]) -> list[str]:
    """Write `files` (relative `/` path -> text) into `folder`; returns the stale files removed.

    Stale files are those the previous run wrote (its manifest) and this run does not.
    """
    folder.mkdir(parents=True, exist_ok=True)
    before = written_before(folder)
    _write_manifest(folder, before | set(files))
    for name, text in files.items():
        write_atomic(folder / name, text)
    removed: list[str] = []
    for name in sorted(before - set(files)):
        path = folder / name
        if path.is_file() and not path.is_symlink():
            path.unlink()
            removed.append(name)
    _write_manifest(folder, files)
    return removed
