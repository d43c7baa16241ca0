"""The second look: the model's draft held against what GitHub and the maintainers already say,
before `corrections answer` posts it (docs/rules.md, "The second look"). Its decision, its
thresholds and its words, in this one file; plain Python, no I/O.

- A duplicate target is left out when maintainers objected to a notice naming it (the read's
  corrections.json holds the objections: no request), when it is not an issue of this repository
  (no such number, a pull request, an issue moved to another repository), or when it is closed
  (itself as a duplicate, as not planned, or otherwise) or locked. Its state is what GitHub
  answers at the moment of the answer (one request); when GitHub cannot say, the target is left
  out too: a notice nobody can check costs a maintainer an objection, a notice left out costs
  nothing they must undo.
- A label is left out when at least MIN_REMOVED of the NEIGHBOURS nearest corrected issues (the
  order of corrections.json: nearest the analysed issue first) had it removed by maintainers, at
  most MAX_KEPT of them kept it, and no analysis of the window kept it (corrections.json's
  `kept`): a label right on other issues (`question` on usage questions, removed on feature
  requests) is never held back for its neighbours' sake. Chosen by measurement (docs/quality.md,
  "The second look").

What it leaves out is recorded in the marker (`"second_look"`, corrections/rules/analysis_marker.py)
and said in the posted comment, one short line each (`line`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from assistant.untrusted import clean_line, inline_code
from corrections.rules.analysis_marker import LeftOut

# The label vote: of the NEIGHBOURS nearest corrected issues, at least MIN_REMOVED had the label
# removed and at most MAX_KEPT kept it.
NEIGHBOURS = 5
MIN_REMOVED = 2
MAX_KEPT = 0


class Why(StrEnum):
    """Why the second look left something out: the marker's `why` word."""

    OBJECTED = "objected"  # maintainers objected to a notice naming the target
    NOT_AN_ISSUE = "not_an_issue"  # no issue with that number here: none, or a pull request
    ELSEWHERE = "elsewhere"  # the issue now belongs to another repository
    CLOSED_AS_DUPLICATE = "closed_as_duplicate"
    NOT_PLANNED = "not_planned"
    CLOSED = "closed"
    LOCKED = "locked"
    UNSEEN = "unseen"  # GitHub could not say what the target is
    REMOVED_NEARBY = "removed_nearby"  # the label vote


@dataclass(frozen=True)
class TargetState:
    """What GitHub says of a duplicate target: `kind` "issue", "pull_request" or "missing"; the
    repository it belongs to ("owner/name"); open or not, why closed (GitHub's stateReason), locked."""

    kind: str
    repository: str = ""
    open: bool = True
    state_reason: str | None = None
    locked: bool = False


@dataclass(frozen=True)
class Neighbour:
    """A corrected issue near the analysed one: the labels maintainers removed and those they kept
    (put forward by its analysis and left on it)."""

    number: int
    removed: frozenset[str]
    kept: frozenset[str]


@dataclass(frozen=True)
class Look:
    """The draft after the second look: its labels, its duplicate target, and what was left out."""

    labels: tuple[str, ...]
    duplicate_of: int | None
    left_out: tuple[LeftOut, ...] = ()


def needs_target_state(duplicate_of: int | None, objected: Collection[int]) -> bool:
    """Whether the duplicate target's state decides (so it is asked of GitHub): not when there is
    none, or when an objection already leaves it out."""
    return duplicate_of is not None and duplicate_of not in objected


def target_verdict(
    duplicate_of: int, repository: str, objected: Collection[int], state: TargetState | None
) -> Why | None:
    """Why the target is left out, in this order; None when it may be named."""
    if duplicate_of in objected:
        return Why.OBJECTED
    if state is None:
        return Why.UNSEEN
    if state.kind != "issue":
        return Why.NOT_AN_ISSUE
    if state.repository.casefold() != repository.casefold():
        return Why.ELSEWHERE
    if not state.open:
        reason = (state.state_reason or "").upper()
        return {"DUPLICATE": Why.CLOSED_AS_DUPLICATE, "NOT_PLANNED": Why.NOT_PLANNED}.get(reason, Why.CLOSED)
    return Why.LOCKED if state.locked else None


def removed_nearby(
    label: str, neighbours: Sequence[Neighbour], kept_in_window: Collection[str] = ()
) -> int | None:
    """How many of the nearest corrected issues had `label` removed, when the vote leaves it out;
    None when it stays. `kept_in_window`: the labels (case-folded) an analysis of the window kept."""
    near = neighbours[:NEIGHBOURS]
    name = label.casefold()
    if name in kept_in_window:
        return None
    removed = sum(1 for n in near if name in n.removed)
    kept = sum(1 for n in near if name in n.kept)
    return removed if removed >= MIN_REMOVED and kept <= MAX_KEPT else None


def look(
    labels: Sequence[str],
    duplicate_of: int | None,
    *,
    repository: str,
    neighbours: Sequence[Neighbour],
    objected: Collection[int],
    state: TargetState | None,
    kept_in_window: Collection[str] = (),
) -> Look:
    """The second look at a draft; `neighbours` nearest first, label names compared case-folded;
    `kept_in_window`: the labels (case-folded) some analysis of the window kept."""
    left: list[LeftOut] = []
    kept_labels: list[str] = []
    for name in labels:
        removed = removed_nearby(name, neighbours, kept_in_window)
        if removed is None:
            kept_labels.append(name)
        else:
            left.append(LeftOut(Why.REMOVED_NEARBY.value, label=name, removed=removed))
    target = duplicate_of
    if duplicate_of is not None:
        why = target_verdict(duplicate_of, repository, objected, state)
        if why is not None:
            left.insert(0, LeftOut(why.value, duplicate_of=duplicate_of))
            target = None
    return Look(tuple(kept_labels), target, tuple(left))


# --- the words ----------------------------------------------------------------------------------

_TARGET_WORDS: dict[str, str] = {
    Why.OBJECTED: "maintainers said it is a different problem",
    Why.NOT_AN_ISSUE: "it is not an issue of this repository",
    Why.ELSEWHERE: "it was moved to another repository",
    Why.CLOSED_AS_DUPLICATE: "it is itself closed as a duplicate",
    Why.NOT_PLANNED: "it was closed as not planned",
    Why.CLOSED: "it is closed",
    Why.LOCKED: "it is locked",
    Why.UNSEEN: "I could not check that it is an open issue here",
}


def line(entry: LeftOut) -> str:
    """The comment's one short line for what was left out (the issue number in a code span, so
    that it links nothing: a target left out is not mentioned)."""
    if entry.duplicate_of is not None:
        words = _TARGET_WORDS.get(entry.why, "it did not pass the second look")
        return f"I did not name `#{entry.duplicate_of}` as a duplicate: {words}."
    return (
        f"I did not add {inline_code(clean_line(entry.label or ''))}: maintainers removed it from "
        f"{entry.removed} similar corrected issues and kept it on none."
    )


def explained(entry: LeftOut) -> str:
    """explain's sentence for what the second look left out of the first analysis."""
    if entry.duplicate_of is not None:
        words = _TARGET_WORDS.get(entry.why, entry.why)
        return f"the second look left out the duplicate notice naming #{entry.duplicate_of} ({words})"
    return (
        f"the second look left out the label {entry.label} (maintainers removed it from "
        f"{entry.removed} of the {NEIGHBOURS} nearest corrected issues and kept it on none)"
    )
