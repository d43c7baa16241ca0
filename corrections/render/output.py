"""Writing the context folder: every file replaced atomically, and nothing deleted that this program did not write.

The folder may hold the maintainer's own files (`issues/mynotes.md`): they are never touched. To
remove what an earlier run wrote and this run did not (the issue that left the window, a
learnings.md when learnings are now off), the folder keeps a manifest, `MANIFEST`, of the files
the last run wrote. The manifest is widened to this run's files before any of them is written and
narrowed after the stale ones are gone, so a run cut at any point leaves every file it wrote
listed. A folder written by a version without a manifest keeps its old files (they are not known
to be ours).

The folder may be in a stranger's checkout, manifest included, so the manifest is a hint, not a
fact: a name it lists is removed only when it is one this program writes (`could_have_written`)
and a plain file reached without a symbolic link (assistant.files.Folder, which never follows
one); any other name is left alone and said in a warning.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from assistant.files import Folder
from assistant.untrusted import clean_line

MANIFEST = ".corrections-files.json"
# Every name `corrections read` writes into the folder (corrections.render.context.render_context):
# write_context refuses to write any other, so this list cannot drift from what is written.
_WRITTEN = re.compile(
    r"(?:corrections\.md|corrections\.json|learnings\.md|examples\.md|issues/[1-9][0-9]{0,9}\.md)"
)


def could_have_written(name: str) -> bool:
    """Whether `name` (relative, `/`-separated) is one of the names this program writes into the folder."""
    return _WRITTEN.fullmatch(name) is not None


@dataclass(frozen=True)
class Written:
    """What write_context did besides writing: the stale files it removed, the manifest's names it ignored."""

    removed: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)

    def warnings(self, folder: Path) -> list[str]:
        """One warning naming the manifest's entries that were left alone, when there are any."""
        if not self.ignored:
            return []
        shown = ", ".join(clean_line(name)[:80] for name in self.ignored[:5])
        more = f" and {len(self.ignored) - 5} more" if len(self.ignored) > 5 else ""
        return [
            f"{folder / MANIFEST} lists {shown}{more}, which this command does not write: "
            "left alone (the manifest is not trusted)"
        ]


def _listed(raw_text: bytes | None) -> list[str]:
    """The names a manifest lists, as written; empty without a readable manifest."""
    if raw_text is None:
        return []
    try:
        raw = json.loads(raw_text)
    except ValueError:
        return []
    files = raw.get("files") if isinstance(raw, dict) else None
    if not isinstance(files, list):
        return []
    return [name for name in files if isinstance(name, str)]


def written_before(folder: Folder) -> tuple[set[str], list[str]]:
    """The files the last run wrote that are still ours to remove, and the manifest's other names.

    A name counts only when this program writes such a name and it is a plain file reached without
    a symbolic link; a name already gone is simply forgotten.
    """
    kept: set[str] = set()
    ignored: list[str] = []
    for name in _listed(folder.read(MANIFEST)):
        if could_have_written(name) and folder.kind(name) in {"file", "missing"}:
            kept.add(name)
        elif name not in ignored:
            ignored.append(name)
    return kept, ignored


def _write_manifest(folder: Folder, names: Iterable[str]) -> None:
    folder.write(MANIFEST, json.dumps({"v": 1, "files": sorted(names)}, indent=1) + "\n")


def write_context(path: Path, files: Mapping[str, str]) -> Written:
    """Write `files` (relative `/` path -> text) into the folder `path`; what else was done.

    Stale files are those the previous run wrote (its manifest) and this run does not. Raises
    UnsafePath when a folder on the way is a symbolic link (nothing is written through it), and
    ValueError for a name this program does not write (a programming error).
    """
    unknown = sorted(name for name in files if not could_have_written(name))
    if unknown:
        raise ValueError(f"write_context: not a context file: {unknown}")
    with Folder.open(path) as folder:
        folder.make_folders(files)
        before, ignored = written_before(folder)
        _write_manifest(folder, before | set(files))
        for name, text in files.items():
            folder.write(name, text)
        removed = [name for name in sorted(before - set(files)) if folder.remove(name)]
        _write_manifest(folder, files)
    return Written(removed=removed, ignored=ignored)
