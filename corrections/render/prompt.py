"""`corrections prompt`: one ready-to-send text assembled from a context folder.

A model that only reads its prompt cannot open `issues/<n>.md`, so this puts the fixed guidance,
`corrections.md`, `learnings.md` and, within a character budget, excerpts of the issues into one
text. An excerpt is an `issues/<n>.md` file as `corrections read` wrote it: its untrusted values are
JSON strings, one per line, inside a fence longer than any backtick run. An excerpt is kept whole,
cut between whole lines (what teaches kept longest: corrections/render/excerpt_lines.py; each cut said
inside the fence), or left out and named: never cut inside a JSON string or its fence. The budget
is a hard cap, in tokens (corrections/render/tokens.py) or characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from assistant.files import Folder
from corrections.render.excerpt_lines import cut_lines
from corrections.render.prompt_budget import Budget
from corrections.render.templating import render_template
from corrections.render.tokens import ENCODING, LineCounter, count_tokens

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
    budget: Budget
    tokens: int  # counted by the tokenizer, the whole text at once
    shown: tuple[int, ...]
    cut: tuple[int, ...]
    left_out: tuple[int, ...]

    @property
    def chars(self) -> int:
        """Its length in characters (Unicode code points)."""
        return len(self.text)

    @property
    def over_budget(self) -> bool:
        """Whether the parts that are always whole (guidance, corrections, learnings) exceed it."""
        budget = self.budget
        return (budget.max_tokens is not None and self.tokens > budget.max_tokens) or (
            budget.max_chars is not None and self.chars > budget.max_chars
        )

    def size(self) -> str:
        """Its size: characters, and tokens as the tokenizer counts them."""
        return f"{self.chars:,} characters, {self.tokens:,} tokens ({ENCODING})"

    def describe(self) -> str:
        """One line: size, tokens and the excerpts shown, cut and left out."""
        issues = len(self.shown) + len(self.left_out)
        return (
            f"{self.size()}; issue excerpts: {len(self.shown)} of {issues} shown, {len(self.cut)} cut, "
            f"{len(self.left_out)} left out (budget {self.budget.describe()})"
        )


def _demoted(markdown: str) -> str:
    """A file's own top heading one level down, under the prompt's title."""
    text = markdown.strip("\n")
    return "#" + text if text.startswith("# ") else text


def excerpt_text(excerpt: IssueExcerpt, keep: int | None = None) -> str:
    """An excerpt as it appears in the prompt, whole or with only `keep` of its fenced lines.

    A cut keeps the issue's own lines (title, author, state, body), then the timeline lines that
    teach most (corrections/render/excerpt_lines.py), and says in the fence, in the program's words, how
    many lines are left out wherever it left some.
    """
    lines = list(excerpt.lines)
    cut = keep is not None and keep < len(lines)
    if keep is not None and cut:
        lines = cut_lines(lines, min(HEAD_LINES, len(lines)), keep)
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


def _fits(budget: Budget, max_tokens: int | None, tokens: Callable[[str], int]) -> Callable[[str], bool]:
    """Whether a text holds within the character cap and `max_tokens` as `tokens` counts them."""

    def fits(text: str) -> bool:
        if budget.max_chars is not None and len(text) > budget.max_chars:
            return False
        return max_tokens is None or tokens(text) <= max_tokens

    return fits


def assemble_prompt(
    context: ContextFolder, *, issue: int | None, budget: Budget, new_issue: str | None = None
) -> Prompt:
    """The prompt: guidance, corrections and learnings always whole, then as many excerpts as fit,
    then `new_issue` (the analysed issue's section, corrections/render/new_issue.py), always whole.

    Excerpts come in `context.order` (the corrected issues first), the analysed issue's own
    left out. Each is kept whole when it fits, else cut to the most lines that fit (keeping at
    least the issue's title, author, state and body), else left out; every later one is still
    tried. Each choice is checked against the whole rendered text, its tokens summed line by line
    (a few over the whole count); the result is counted whole at the end and, in the rare case
    that it is still over, chosen again under a budget lowered by the excess. So the prompt stays
    within the budget unless the parts that are always whole exceed it alone.
    """
    counter = LineCounter()
    max_tokens = budget.max_tokens
    while True:
        prompt = _select(context, issue, new_issue, budget, _fits(budget, max_tokens, counter))
        over = 0 if budget.max_tokens is None else prompt.tokens - budget.max_tokens
        if over <= 0 or not prompt.shown or max_tokens is None:
            return prompt
        max_tokens -= over


def _select(
    context: ContextFolder,
    issue: int | None,
    new_issue: str | None,
    budget: Budget,
    fits: Callable[[str], bool],
) -> Prompt:
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
        if fits(render(whole)):
            selection = whole
            continue
        # The most lines that fit: each line fewer shortens the text, but for a note where a
        # new gap opens, so the search finds a cut that fits, if not always the longest.
        low, high = min(HEAD_LINES, len(excerpt.lines)), len(excerpt.lines) - 1
        best: _Selection | None = None
        while low <= high:
            middle = (low + high) // 2
            trial = extended(excerpt_text(excerpt, middle), number, cut=True)
            if fits(render(trial)):
                best, low = trial, middle + 1
            else:
                high = middle - 1
        if best is not None:
            selection = best
    text = render(selection)
    return Prompt(
        text=text,
        budget=budget,
        tokens=count_tokens(text),
        shown=tuple(selection.shown),
        cut=tuple(selection.cut),
        left_out=tuple(n for n in candidates if n not in selection.shown),
    )
