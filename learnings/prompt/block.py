"""The learnings prompt block (`learnings.md`): rank, leave out the stale, budget, render.

The budget: at most so many learnings and so many characters, in rank order. Learnings are taken
in rank order while both budgets allow; the first one that does not fit ends the block, so a
lower-ranked learning never takes the place of a higher-ranked one. Stale learnings among the
ranked ones are left out before. What is left out is counted, so the block can say so.

Every piece of a learning that came from the store (its text, globs, category) is cleaned of
invisible characters and written as a JSON string, and all entries sit in one backtick fence longer
than any backtick run inside it, like issue text in `issues/<n>.md`. The template holds only fixed
words of the program.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from assistant.templating import markdown_environment
from assistant.untrusted import clean_line, fence_for, json_text, truncate
from learnings.rules.model import Learning, Source
from learnings.rules.rank import rank
from learnings.store.edit import MAX_TEXT_CHARS

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
_ENVIRONMENT = markdown_environment(TEMPLATES, trim_blocks=True)
_ENTRY_OVERHEAD = len("NNN. \n   \n")


class Entry(BaseModel):
    """One learning as the block shows it: a header of fixed words and JSON strings, and its text."""

    model_config = ConfigDict(frozen=True)

    header: str
    text: str

    @property
    def size(self) -> int:
        """Characters it takes in the block."""
        return len(self.header) + len(self.text) + _ENTRY_OVERHEAD


def source_parts(source: Source) -> list[str]:
    """Where a learning came from, in fixed words and numbers: issue, pull request, comment, who accepted it."""
    parts: list[str] = []
    if source.issue is not None:
        parts.append(f"issue #{source.issue}")
    if source.pull_request is not None:
        parts.append(f"pull request #{source.pull_request}")
    if source.comment is not None:
        parts.append(f"comment {source.comment}")
    if source.accepted_by is not None:
        parts.append(f"accepted by @{source.accepted_by}")
    return parts


def provenance(source: Source) -> str:
    """Where a learning came from, for the prompt block (logins are checked by the model)."""
    parts = source_parts(source)
    return "from " + ", ".join(parts) if parts else "no recorded source"


def entry(learning: Learning) -> Entry:
    """The escaped view of one learning."""
    if learning.kind == "suppression":
        kind = f"suppression of category {json_text(clean_line(learning.category or ''))}"
    else:
        kind = "note"
    where = (
        "paths " + ", ".join(json_text(clean_line(text)) for text in learning.paths)
        if learning.paths
        else "whole repository"
    )
    header = f"{learning.id} · {kind} · {where} · {provenance(learning.source)}"
    return Entry(header=header, text=json_text(truncate(clean_line(learning.text), MAX_TEXT_CHARS)))


class Budgeted(BaseModel):
    """The learnings that fit, how many ranked ones did not, and how many stale ones were left out."""

    model_config = ConfigDict(frozen=True)

    shown: tuple[Learning, ...]
    cut: int
    stale: int


def fit(
    ranked: Sequence[Learning],
    *,
    max_entries: int,
    max_chars: int,
    size: Callable[[Learning], int],
    stale_ids: frozenset[str] = frozenset(),
) -> Budgeted:
    """The ranked learnings within the budgets; `size` is the length of one rendered entry.

    Ranked learnings whose ids are in `stale_ids` are left out first and counted as stale.
    """
    fresh = [learning for learning in ranked if learning.id not in stale_ids]
    shown: list[Learning] = []
    used = 0
    for learning in fresh:
        cost = size(learning)
        if len(shown) >= max_entries or used + cost > max_chars:
            break
        shown.append(learning)
        used += cost
    return Budgeted(shown=tuple(shown), cut=len(fresh) - len(shown), stale=len(ranked) - len(fresh))


def render_block(
    learnings: Iterable[Learning],
    *,
    changed_paths: Sequence[str],
    max_entries: int,
    max_chars: int,
    stale_ids: frozenset[str] = frozenset(),
) -> str:
    """The prompt block for a change: the ranked learnings that fit, and counts of the rest."""
    return block_and_ids(
        learnings,
        changed_paths=changed_paths,
        max_entries=max_entries,
        max_chars=max_chars,
        stale_ids=stale_ids,
    )[0]


def block_and_ids(
    learnings: Iterable[Learning],
    *,
    changed_paths: Sequence[str],
    max_entries: int,
    max_chars: int,
    stale_ids: frozenset[str] = frozenset(),
) -> tuple[str, tuple[str, ...]]:
    """The prompt block (`render_block`) and the ids of the learnings it shows, in its order
    (what an analysis's receipt names)."""
    store = list(learnings)
    ranked = rank(store, changed_paths)
    budgeted = fit(
        ranked,
        max_entries=max_entries,
        max_chars=max_chars,
        size=lambda learning: entry(learning).size,
        stale_ids=stale_ids,
    )
    entries = [entry(learning) for learning in budgeted.shown]
    fence = fence_for(line for item in entries for line in (item.header, item.text))
    text = _ENVIRONMENT.get_template("learnings.md.j2").render(
        empty=not any(learning.active for learning in store),
        entries=entries,
        fence=fence,
        cut=budgeted.cut,
        stale=budgeted.stale,
        changed=len(changed_paths),
        max_entries=max_entries,
        max_chars=max_chars,
    )
    return text.rstrip("\n") + "\n", tuple(learning.id for learning in budgeted.shown)
