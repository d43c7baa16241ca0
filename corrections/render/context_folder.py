"""A context folder written by an earlier step, read back: `corrections prompt --context DIR`
(the prompt's context), `corrections answer --context DIR` and `corrections marker --context DIR`
(corrections.json alone: the one decoder of that file, `read_index`).

Every other prompt is assembled from the files in memory, as the renderers gave them
(corrections.render.prompt.context_of). The folder may be in a stranger's checkout: no symbolic
link in it is followed (assistant.files.Folder), so a committed `learnings.md` link to a private
file never reaches the prompt.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from assistant.files import Folder
from corrections.render.collapse import excerpt_numbers
from corrections.render.issue_file import IssueExcerpt, parse_issue_file
from corrections.render.prompt import ContextFolder, excerpt_order
from corrections.rules.analysis_marker import MarkerError, Receipt, parse_receipt


class PromptError(ValueError):
    """A context folder the prompt cannot be assembled from; the message names the file."""


class _Objection(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    of: int
    by: str = "maintainer"


class _Correction(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    number: int
    labels_removed: list[str] = []
    # Absent in a folder of an earlier version: what maintainers kept is then not known.
    labels_kept: list[str] | None = None
    duplicate: _Objection | None = None


class _Kept(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    kept: int = 0


class ContextIndex(BaseModel):
    """The part of corrections.json the prompt, `corrections answer` and `corrections marker
    --context` need: which issues, in which order, and the vocabulary; the receipt (`receipt`);
    for the second look, the repository, the switch, and each correction's removed and kept
    labels and objection. Its one decoder is `read_index` (no link followed)."""

    model_config = ConfigDict(extra="ignore", strict=True)

    v: int
    window: list[int]
    corrections: list[_Correction]
    vocabulary: list[str] = []
    repository: str | None = None  # owner/name of the repository read
    second_look: bool = True
    kept: dict[str, _Kept] = {}
    lines: list[list[int]] | None = None  # corrections.md's lines (absent from older folders)
    learnings: list[str] = []  # the ids of learnings.md's learnings (absent from older folders)

    def receipt(self, path: Path) -> Receipt:
        """What the model given this folder was given (the marker's `"context"`): the issues of
        the correction lines and the learnings' ids; PromptError naming `path` when they are not
        a receipt (corrections/rules/analysis_marker.py bounds it)."""
        try:
            return parse_receipt(
                {"corrections": [c.number for c in self.corrections], "learnings": self.learnings}
            )
        except MarkerError as error:
            raise PromptError(f"{path}: {error}") from error

    def excerpt_corrected(self) -> list[int]:
        """The corrected issues in the order the prompt tries their excerpts."""
        if self.lines is None:
            return [c.number for c in self.corrections]
        return excerpt_numbers(self.lines)


_NOT_FOUND = "not found; write the folder with `corrections read` first"


def _text(files: Folder, folder: Path, name: str) -> str:
    """The text of the context file `name`; PromptError when it is missing, a link, or not UTF-8."""
    data = files.read(name)
    if data is None:
        missing = files.kind(name) == "missing"
        raise PromptError(
            f"{folder / name}: {_NOT_FOUND if missing else 'not a plain file (a link is never followed)'}"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PromptError(f"{folder / name}: cannot be read: {error}") from error


def _opened(folder: Path, name: str) -> Folder:
    """The context folder, opened without following a link; PromptError naming `name` when it is
    missing or cannot be read."""
    try:
        return Folder.open(folder, create=False)
    except FileNotFoundError as error:
        raise PromptError(f"{folder / name}: {_NOT_FOUND}") from error
    except OSError as error:
        raise PromptError(f"{folder}: cannot be read: {error}") from error


def _index(files: Folder, folder: Path) -> ContextIndex:
    """The folder's corrections.json; PromptError, naming the file, when it is unusable."""
    index_path = folder / "corrections.json"
    try:
        index = ContextIndex.model_validate_json(_text(files, folder, "corrections.json"))
    except ValidationError as error:
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid"}
        where = ".".join(str(part) for part in first["loc"]) or "document"
        raise PromptError(f"{index_path}: {where}: {first['msg']}") from error
    if index.v != 1:
        raise PromptError(f"{index_path}: v: version {index.v} is not known (expected 1)")
    return index


def read_index(folder: Path) -> ContextIndex:
    """The folder's corrections.json alone (what `corrections answer` and `corrections marker
    --context` need), read as the prompt reads it; raises PromptError naming the file."""
    with _opened(folder, "corrections.json") as files:
        return _index(files, folder)


def read_context(folder: Path) -> ContextFolder:
    """The context folder's files; raises PromptError when corrections.md or .json is unusable.

    An issue file that is missing or not in the shape `corrections read` writes (its parts,
    rendered again, do not give the file: corrections/render/issue_file.py) is left out, with a
    warning naming it.
    """
    with _opened(folder, "corrections.md") as files:
        corrections = _text(files, folder, "corrections.md")
        index = _index(files, folder)
        warnings: list[str] = []
        kind = files.kind("learnings.md")
        learnings = _text(files, folder, "learnings.md") if kind == "file" else None
        if kind == "other":
            warnings.append(
                f"{folder / 'learnings.md'}: not a plain file (a link is never followed); left out"
            )
        examples = None
        if (found := files.kind("examples.md")) == "file":
            examples = _text(files, folder, "examples.md")
        elif found == "other":
            warnings.append(
                f"{folder / 'examples.md'}: not a plain file (a link is never followed); left out"
            )
        order = excerpt_order(index.excerpt_corrected(), index.window)
        excerpts: dict[int, IssueExcerpt] = {}
        for number in order:
            path = folder / "issues" / f"{number}.md"
            try:
                text = _text(files, folder, f"issues/{number}.md")
            except PromptError:
                warnings.append(f"{path}: cannot be read; left out of the prompt")
                continue
            excerpt = parse_issue_file(text, number)
            if excerpt is None:
                warnings.append(f"{path}: not in the shape `corrections read` writes; left out of the prompt")
                continue
            excerpts[number] = excerpt
    return ContextFolder(
        corrections=corrections,
        learnings=learnings,
        order=order,
        excerpts=excerpts,
        warnings=tuple(warnings),
        examples=examples,
    )
