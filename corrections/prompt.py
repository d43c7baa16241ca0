"""`corrections prompt`: one ready-to-send text assembled from a context folder.

A model that only reads its prompt cannot open `issues/<n>.md`, so this puts the fixed guidance,
`corrections.md`, `learnings.md` and, within a character budget, excerpts of the issues into one
text. An excerpt is an `issues/<n>.md` file as `corrections read` wrote it: its untrusted values are
JSON strings, one per line, inside a fence longer than any backtick run. An excerpt is kept whole,
cut after a whole line (and the cut said inside the fence), or left out and named: never cut inside
a JSON string or its fence.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from assistant.files import Folder
from corrections.prompt_budget import CHARS_PER_TOKEN
from corrections.templating import render_template

PROMPT_FILE = "prompt.md"
# The lines of an issue file before its timeline (title, author, state, body): a cut keeps them.
HEAD_LINES = 4

_ISSUE_HEADING = re.compile(r"# Issue #(\d+)")
_FENCE = re.compile(r"`{3,}")


class PromptError(ValueError):
    """A context folder the prompt cannot be assembled from; the message names the file."""


@dataclass(frozen=True)
class IssueExcerpt:
    """The parts of one `issues/<n>.md`: the fenced lines and the program's summary below them."""

    number: int
    fence: str
    lines: tuple[str, ...]
    summary: str


def parse_issue_file(text: str, number: int) -> IssueExcerpt | None:
    """The excerpt of an issue file in the shape `render_issue_md` writes, else None.

    Every line inside the fence must be free of backtick runs as long as the fence, so no line
    of the excerpt can close it.
    """
    lines = text.split("\n")
    heading = _ISSUE_HEADING.fullmatch(lines[0]) if lines else None
    if heading is None or int(heading.group(1)) != number:
        return None
    opening = next((i for i, line in enumerate(lines) if _FENCE.fullmatch(line)), None)
    if opening is None:
        return None
    fence = lines[opening]
    try:
        closing = lines.index(fence, opening + 1)
    except ValueError:
        return None
    inner = tuple(lines[opening + 1 : closing])
    if any("`" * len(fence) in line for line in inner):
        return None
    summary = "\n".join(lines[closing + 1 :]).strip()
    if "`" * 3 in summary:
        return None
    return IssueExcerpt(number=number, fence=fence, lines=inner, summary=summary)


class _Correction(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    number: int


class ContextIndex(BaseModel):
    """The part of corrections.json the prompt and `corrections answer` need: which issues, in
    which order, and the vocabulary."""

    model_config = ConfigDict(extra="ignore", strict=True)

    v: int
    window: list[int]
    corrections: list[_Correction]
    vocabulary: list[str] = []


@dataclass(frozen=True)
class ContextFolder:
    """What `corrections read` wrote, as the prompt needs it."""

    corrections: str
    learnings: str | None
    order: tuple[int, ...]  # corrected issues in corrections.md's order, then the rest of the window
    excerpts: dict[int, IssueExcerpt] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


_NOT_FOUND = "not found; write the folder with `corrections read` first"


class _Files(Protocol):
    """What the prompt reads a context folder through: assistant.files.Folder, or files in memory."""

    def kind(self, name: str) -> str: ...
    def read(self, name: str) -> bytes | None: ...


@dataclass(frozen=True)
class _InMemory:
    """A context folder's files as the renderers give them (relative name -> text), never on disk."""

    files: Mapping[str, str]

    def kind(self, name: str) -> str:
        return "file" if name in self.files else "missing"

    def read(self, name: str) -> bytes | None:
        text = self.files.get(name)
        return None if text is None else text.encode("utf-8")


def context_of(files: Mapping[str, str], folder: Path) -> ContextFolder:
    """`read_context` of a folder's files already in memory, as `corrections read` would write them
    into `folder` (`corrections backtest`: one context per analysis, none written)."""
    return _context(_InMemory(files), folder)


def _text(files: _Files, folder: Path, name: str) -> str:
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


def _index(files: _Files, folder: Path) -> ContextIndex:
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
    """The folder's corrections.json alone (what `corrections answer` needs), read as the prompt
    reads it; raises PromptError naming the file."""
    with _opened(folder, "corrections.json") as files:
        return _index(files, folder)


def read_context(folder: Path) -> ContextFolder:
    """The context folder's files; raises PromptError when corrections.md or .json is unusable.

    An issue file that is missing or not in the shape `corrections read` writes is left out,
    with a warning naming it. The folder may be in a stranger's checkout: no symbolic link in it
    is followed (assistant.files.Folder), so a committed `learnings.md` link to a private file
    never reaches the prompt.
    """
    with _opened(folder, "corrections.md") as files:
        return _context(files, folder)


def _context(files: _Files, folder: Path) -> ContextFolder:
    corrections = _text(files, folder, "corrections.md")
    index = _index(files, folder)
    warnings: list[str] = []
    learnings = _text(files, folder, "learnings.md") if files.kind("learnings.md") == "file" else None
    if files.kind("learnings.md") == "other":
        warnings.append(f"{folder / 'learnings.md'}: not a plain file (a link is never followed); left out")
    order = list(dict.fromkeys([c.number for c in index.corrections] + index.window))
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
        order=tuple(order),
        excerpts=excerpts,
        warnings=tuple(warnings),
    )


@dataclass(frozen=True)
class Prompt:
    """The assembled text and what went into it."""

    text: str
    max_chars: int
    shown: tuple[int, ...]
    cut: tuple[int, ...]
    left_out: tuple[int, ...]

    @property
    def chars(self) -> int:
        """Its length in characters (Unicode code points)."""
        return len(self.text)

    @property
    def tokens(self) -> int:
        """About how many tokens it is: characters / CHARS_PER_TOKEN, rounded up."""
        return math.ceil(self.chars / CHARS_PER_TOKEN)

    @property
    def over_budget(self) -> bool:
        """Whether the parts that are always whole (guidance, corrections, learnings) exceed it."""
        return self.chars > self.max_chars

    def describe(self) -> str:
        """One line: size, estimated tokens and the excerpts shown, cut and left out."""
        issues = len(self.shown) + len(self.left_out)
        return (
            f"{self.chars:,} characters, about {self.tokens:,} tokens (characters / {CHARS_PER_TOKEN}); "
            f"issue excerpts: {len(self.shown)} of {issues} shown, {len(self.cut)} cut, "
            f"{len(self.left_out)} left out (budget {self.max_chars:,} characters)"
        )


def _demoted(markdown: str) -> str:
    """A file's own top heading one level down, under the prompt's title."""
    text = markdown.strip("\n")
    return "#" + text if text.startswith("# ") else text


def excerpt_text(excerpt: IssueExcerpt, keep: int | None = None) -> str:
    """An excerpt as it appears in the prompt, whole or with only `keep` of its fenced lines.

    A cut keeps the issue's own lines (title, author, state, body), then as many timeline lines
    from the start (the analysis) as from the end (the latest corrections), and says in the
    fence, in the program's words, how many lines between them are left out.
    """
    lines = list(excerpt.lines)
    cut = keep is not None and keep < len(lines)
    if keep is not None and cut:
        head = min(HEAD_LINES, len(lines))
        kept = max(0, keep - head)
        rest = lines[head:]
        front, back = rest[: (kept + 1) // 2], rest[len(rest) - kept // 2 :] if kept // 2 else []
        note = f"({len(lines) - keep} lines not shown here: over the prompt's budget)"
        lines = [*lines[:head], *front, note, *back]
    return render_template(
        "prompt-issue.md.j2",
        number=excerpt.number,
        cut=cut,
        fence=excerpt.fence,
        lines=lines,
        summary=excerpt.summary,
    )


@dataclass
class _Selection:
    """The excerpts chosen so far, by issue number, and their texts in the prompt's order."""

    texts: list[str] = field(default_factory=list)
    shown: list[int] = field(default_factory=list)
    cut: list[int] = field(default_factory=list)


def assemble_prompt(
    context: ContextFolder, *, issue: int | None, max_chars: int, new_issue: str | None = None
) -> Prompt:
    """The prompt: guidance, corrections and learnings always whole, then as many excerpts as fit,
    then `new_issue` (the analysed issue's section, corrections/new_issue.py), always whole.

    Excerpts come in `context.order` (the corrected issues first), the analysed issue's own
    left out. Each is kept whole when it fits, else cut after the longest run of whole lines that
    fits (keeping at least the issue's title, author, state and body), else left out; every later
    one is still tried. Each choice is checked against the whole rendered text, so the result
    stays within `max_chars` unless the parts that are always whole exceed it alone.
    """
    candidates = [n for n in context.order if n != issue and n in context.excerpts]
    selection = _Selection()

    def render(trial: _Selection) -> str:
        left_out = [n for n in candidates if n not in trial.shown]
        return render_template(
            "prompt.md.j2",
            issue=issue,
            corrections=_demoted(context.corrections),
            learnings=_demoted(context.learnings) if context.learnings is not None else None,
            excerpts=trial.texts,
            total=len(candidates),
            cut=trial.cut,
            left_out=left_out,
            new_issue=new_issue,
        )

    def extended(text: str, number: int, *, cut: bool) -> _Selection:
        return _Selection(
            texts=[*selection.texts, text],
            shown=[*selection.shown, number],
            cut=[*selection.cut, number] if cut else selection.cut,
        )

    for number in candidates:
        excerpt = context.excerpts[number]
        whole = extended(excerpt_text(excerpt), number, cut=False)
        if len(render(whole)) <= max_chars:
            selection = whole
            continue
        # The longest cut that fits: each line fewer shortens the text (the note grows by at
        # most one digit while a whole line and its line break go).
        low, high = min(HEAD_LINES, len(excerpt.lines)), len(excerpt.lines) - 1
        best: _Selection | None = None
        while low <= high:
            middle = (low + high) // 2
            trial = extended(excerpt_text(excerpt, middle), number, cut=True)
            if len(render(trial)) <= max_chars:
                best, low = trial, middle + 1
            else:
                high = middle - 1
        if best is not None:
            selection = best
    text = render(selection)
    return Prompt(
        text=text,
        max_chars=max_chars,
        shown=tuple(selection.shown),
        cut=tuple(selection.cut),
        left_out=tuple(n for n in candidates if n not in selection.shown),
    )
