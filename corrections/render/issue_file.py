"""`issues/<n>.md` as its parts: the issue's own lines, its timeline lines and the program's
summary, rendered by one template (pure).

The renderer (corrections/render/files.py) builds the parts and the prompt takes them as they
are. Only a folder written by an earlier step (`corrections prompt --context DIR`) is read back,
by `parse_issue_file`, which holds no copy of the file's shape: it takes the parts where the
fence puts them and keeps them only when rendering them again gives the file, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from assistant.untrusted import fence_for
from corrections.render.pointers import fenced_span
from corrections.render.templating import render_template

# The issue's own lines, before its timeline, each `<field>: <value>`: a cut of an excerpt keeps them.
HEAD_FIELDS = ("title", "author", "state", "body")


def head_lines(title: str, author: str, state: str, body: str) -> tuple[str, ...]:
    """The issue's own lines from its values, already cleaned and quoted (JSON strings)."""
    values = (title, author, state, body)
    return tuple(f"{name}: {value}" for name, value in zip(HEAD_FIELDS, values, strict=True))


@dataclass(frozen=True)
class IssueExcerpt:
    """The parts of one `issues/<n>.md`: the fenced lines (the head, then the timeline) and the
    program's summary below them."""

    number: int
    head: tuple[str, ...]
    timeline: tuple[str, ...]
    summary: str

    @property
    def lines(self) -> tuple[str, ...]:
        """Every fenced line: the issue's own, then its timeline's."""
        return self.head + self.timeline

    @cached_property
    def fence(self) -> str:
        """The fence around the lines: longer than any backtick run in them, so none can close it."""
        return fence_for(self.lines)

    def text(self) -> str:
        """The file `corrections read` writes."""
        return render_template(
            "issue.md.j2", number=self.number, lines=self.lines, fence=self.fence, summary=self.summary
        )


def parse_issue_file(text: str, number: int) -> IssueExcerpt | None:
    """The parts of issue `number`'s file, None unless rendering them gives the file exactly.

    The summary follows the fence in the prompt, so it must hold no fence of its own: a file
    whose summary holds three backticks is refused too.
    """
    lines = text.split("\n")
    span = fenced_span(lines)
    if span is None:
        return None
    opening, closing = span
    inner = lines[opening + 1 : closing]
    head, timeline = tuple(inner[: len(HEAD_FIELDS)]), tuple(inner[len(HEAD_FIELDS) :])
    if len(head) < len(HEAD_FIELDS) or not all(
        line.startswith(f"{name}: ") for name, line in zip(HEAD_FIELDS, head, strict=True)
    ):
        return None
    summary = "\n".join(lines[closing + 1 :]).strip()
    if "`" * 3 in summary:
        return None
    excerpt = IssueExcerpt(number=number, head=head, timeline=timeline, summary=summary)
    return excerpt if excerpt.text() == text else None
