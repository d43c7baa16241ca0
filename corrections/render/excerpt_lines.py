"""Which timeline lines of an issue excerpt a cut keeps: what teaches first, chatter last.

A line of `issues/<n>.md` is the program's: `<time> comment by "<login>": "<text>"`, or
`<time> "<login>" <what they did>`, or a note in parentheses; logins and texts are JSON strings.
A cut keeps, before anything else, the analysis (the line the renderer wrote as one, `first analysis
by`: the rules decided it with assistant.markers.counted; a comment's own text is never read for a
marker here, so a stranger's comment ending with one is just a comment), every change
(labels, closing, duplicates) and the program's notes; then the words of the reporter and of the
people who changed the issue after the analysis (the maintainers who corrected it); other people's
comments (a bot's chatter, passers-by) go first. Within a rank, lines nearest the start and the
end of the timeline stay longest, as the analysis and the latest corrections are there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from corrections.render.excerpt_events import ANALYSIS_BY
from corrections.render.issue_file import HEAD_FIELDS

_COMMENT = "comment by "
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class _Line:
    login: str | None
    comment: bool
    analysis: bool = False  # an analysis as the renderer shows one (excerpt_events.ANALYSIS_BY)


def _login_at(text: str, index: int) -> str | None:
    """The JSON string at `index`; None when there is none."""
    try:
        value, _ = _DECODER.raw_decode(text, index)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, str) else None


def _parse(line: str) -> _Line:
    _, space, rest = line.partition(" ")
    said = next((kind for kind in ANALYSIS_BY if rest.startswith(kind)), None)
    if space and said is not None:  # an analysis, shown as what it says (excerpt_events.py)
        return _Line(_login_at(rest, len(said)), comment=True, analysis=True)
    if space and rest.startswith(_COMMENT):
        return _Line(_login_at(rest, len(_COMMENT)), comment=True)
    if space and rest.startswith('"'):
        return _Line(_login_at(rest, 0), comment=False)
    return _Line(None, comment=False)


def _ends_first(indexes: list[int]) -> list[int]:
    """The first, the last, the second, the second to last, ...: the middle goes first."""
    order: list[int] = []
    low, high = 0, len(indexes) - 1
    while low <= high:
        order.append(indexes[low])
        if high != low:
            order.append(indexes[high])
        low, high = low + 1, high - 1
    return order


def keeping_order(timeline: list[str], reporter: str | None) -> list[int]:
    """Indexes of `timeline`, the line a cut should keep longest first."""
    parsed = [_parse(line) for line in timeline]
    analysis = next((i for i, line in enumerate(parsed) if line.analysis), None)
    start = -1 if analysis is None else analysis
    correctors = {p.login for i, p in enumerate(parsed) if not p.comment and p.login and i > start}
    if analysis is not None:
        correctors.discard(parsed[analysis].login)
    words = {reporter, *correctors} - {None}
    ranks: list[list[int]] = [[], [], []]
    for i, line in enumerate(parsed):
        if not line.comment or i == analysis:
            ranks[0].append(i)
        elif line.login in words:
            ranks[1].append(i)
        else:
            ranks[2].append(i)
    return [i for rank in ranks for i in _ends_first(rank)]


def reporter_of(head: list[str]) -> str | None:
    """The login of an excerpt's `author: "<login>"` line (corrections/render/issue_file.py)."""
    index = HEAD_FIELDS.index("author")
    prefix = f"{HEAD_FIELDS[index]}: "
    line = head[index] if index < len(head) else ""
    return _login_at(line, len(prefix)) if line.startswith(prefix) else None


def cut_lines(lines: list[str], head: int, keep: int) -> list[str]:
    """The first `head` lines and the `keep - head` timeline lines that teach most, in order, with a
    note in the program's words wherever lines are left out."""
    timeline = lines[head:]
    reporter = reporter_of(lines[:head])
    chosen = set(keeping_order(timeline, reporter)[: max(0, keep - head)])
    out = list(lines[:head])
    gap = 0
    for i, line in enumerate(timeline):
        if i in chosen:
            if gap:
                out.append(_note(gap))
                gap = 0
            out.append(line)
        else:
            gap += 1
    if gap:
        out.append(_note(gap))
    return out


def _note(count: int) -> str:
    return f"({count} line{'s' if count != 1 else ''} not shown here: over the prompt's budget)"
