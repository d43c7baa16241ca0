"""`corrections prompt`: one ready-to-send text assembled from the context `corrections read` renders.

A model that only reads its prompt cannot open `issues/<n>.md`, so this puts the fixed guidance,
`corrections.md`, `learnings.md` and, within a character budget, excerpts of the issues into one
text. The context comes as the renderers gave it, in memory (`context_of`); only `corrections
prompt --context DIR` reads a folder back (corrections/render/context_folder.py). An excerpt is
an `issues/<n>.md` file's parts (corrections/render/issue_file.py): its untrusted values are
JSON strings, one per line, inside a fence longer than any backtick run. An excerpt is kept whole,
cut between whole lines (what teaches kept longest: corrections/render/excerpt_lines.py; each cut said
inside the fence), or left out and named: never cut inside a JSON string or its fence. The budget
is a hard cap, in tokens (corrections/render/tokens.py) or characters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from corrections.render.excerpt_lines import cut_lines
from corrections.render.issue_file import IssueExcerpt
from corrections.render.pointers import pointing_only_at
from corrections.render.prompt_budget import Budget
from corrections.render.templating import render_template
from corrections.render.tokens import ENCODING, LineCounter, count_tokens

if TYPE_CHECKING:
    from corrections.render.context import ContextFiles

PROMPT_FILE = "prompt.md"


@dataclass(frozen=True)
class ContextFolder:
    """What `corrections read` writes, as the prompt takes it: from the files in memory
    (`context_of`), or read back from a folder an earlier step wrote (corrections/render/
    context_folder.py, `corrections prompt --context`)."""

    corrections: str
    learnings: str | None
    order: tuple[int, ...]  # corrected issues in corrections.md's order, then the rest of the window
    excerpts: dict[int, IssueExcerpt] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    examples: str | None = None  # examples.md (corrections/render/kept_examples.py), always whole


def excerpt_order(corrected: Iterable[int], window: Iterable[int]) -> tuple[int, ...]:
    """The order of the prompt's excerpts: the corrected issues in corrections.md's order, then
    the rest of the window."""
    return tuple(dict.fromkeys([*corrected, *window]))


def context_of(files: ContextFiles) -> ContextFolder:
    """The prompt's context from the files the renderers gave (corrections/render/context.py),
    never read back from where they were written: the action's, the demo's and the backtest's."""
    return ContextFolder(
        corrections=files.top["corrections.md"],
        learnings=files.top.get("learnings.md"),
        order=excerpt_order(files.corrected, files.window),
        excerpts=dict(files.excerpts),
        examples=files.top.get("examples.md"),
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
        lines = cut_lines(lines, len(excerpt.head), keep)
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
            corrections=_demoted(pointing_only_at(context.corrections, trial.shown)),
            learnings=_demoted(context.learnings) if context.learnings is not None else None,
            examples=_demoted(context.examples) if context.examples is not None else None,
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
        low, high = len(excerpt.head), len(excerpt.lines) - 1
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
