"""How far the sync has read: its high-water marks, kept by GitHub in the sync's own pull request.

The body of the sync's pull request ends with `<!-- assistant:sync-mark {"v": 1, "issues": TIME,
"pulls": TIME, "pending": [NODE_ID, ...], "answers": [[NODE_ID, "ROCKET"], ...]} -->` and a sentence saying the same (`pending`: the
comments read again by id: proposals waiting for a 👍, as a reaction moves no issue's updatedAt,
and commands whose author's permission could not be read; `answers`: answers to commands that a
run's cap left for the next one; `pulls_after` and `pulls_top`, when a budget stopped the pull
requests, newest first, before their mark: where the next run goes on, and what it had read). The next run reads its marks from its own open
pull request, else from its newest merged one (learnings.sync.run decides which are its own), else it
falls back to the learnings already recorded. Pure: marks in, text out, and back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from assistant.markers import json_payload, marker, payloads
from queries.sync_fetch import Marks, Scan

NAME = "sync-mark"
# Comments the mark remembers to read again (proposals waiting for a 👍, commands not decided or
# not answered yet): three requests of nodes(ids:).
MAX_PENDING = 300


NodeId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_=-]{1,100}$")]


class _Payload(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    v: Literal[1]
    issues: AwareDatetime | None = None
    pulls: AwareDatetime | None = None
    pending: tuple[NodeId, ...] = Field(default=(), max_length=MAX_PENDING)
    answers: tuple[tuple[NodeId, Literal["ROCKET", "EYES"]], ...] = Field(default=(), max_length=MAX_PENDING)
    pulls_after: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9+/=_:-]{1,300}$")] | None = None
    pulls_top: AwareDatetime | None = None


def _utc(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None


def mark_marker(marks: Marks) -> str:
    """The hidden marker that records `marks`."""
    payload = {
        "v": 1,
        "issues": _utc(marks.issues),
        "pulls": _utc(marks.pulls),
        "pending": list(marks.pending[-MAX_PENDING:]),
        "answers": [list(answer) for answer in marks.answers[:MAX_PENDING]],
    }
    if marks.pulls_after is not None:
        payload |= {"pulls_after": marks.pulls_after, "pulls_top": _utc(marks.pulls_top)}
    return marker(NAME, json_payload(payload))


def read_marks(bodies: Iterable[str]) -> Marks | None:
    """The marks of the first body that carries a readable mark (its last one), else None."""
    for body in bodies:
        for payload in reversed(payloads(body, NAME)):
            try:
                found = _Payload.model_validate(json.loads(payload))
            except (ValueError, ValidationError):
                continue
            return Marks(
                issues=found.issues,
                pulls=found.pulls,
                pending=found.pending,
                answers=found.answers,
                pulls_after=found.pulls_after,
                pulls_top=found.pulls_top if found.pulls_after else None,
            )
    return None


def marks_sentence(marks: Marks) -> str:
    """The marks in words, for the pull request's body."""
    issues = _utc(marks.issues) or "the start"
    pulls = _utc(marks.pulls) or "the start"
    return f"The sync has read issues updated up to {issues} and pull requests updated up to {pulls}."


def left_note(scan: Scan, budget: int, max_pages: int | None = None) -> str:
    """What a run that its budget (or its cap on pages) ended left for the next one, in fixed words
    and numbers."""
    marks = scan.marks
    parts = []
    if scan.issues_left:
        parts.append(f"{scan.issues_left} issues updated after {_utc(marks.issues) or 'the start'}")
    if scan.pulls_left:
        parts.append(
            f"pull requests updated after {_utc(marks.pulls) or 'the start'} and before "
            f"{_utc(marks.pulls_top) or 'now'} (the next run goes on where this one stopped)"
        )
    stop = (
        f"its cap of {max_pages} pages ({scan.points} points spent)"
        if max_pages is not None and scan.pages >= max_pages
        else f"its budget of {budget} points ({scan.points} spent on {scan.pages} pages)"
    )
    return f"the scan stopped at {stop}; left for the next run: {' and '.join(parts) or 'activity after its marks'}"
