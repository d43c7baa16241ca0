"""Recurrences: a corrected mistake that comes back on a similar issue, given or not given (pure).

A correcting decision of analysis B (a label removed, a label added, a duplicate notice of #D
objected to) **recurs** when maintainers had made the same decision on an earlier issue A that is
similar to B, in the reader's own ranking (corrections/render/nearest.py, `nearest_first`):

- **given** when A is among the NEAREST lines of B's context, or A is among B's NEAREST corrected
  issues of the whole read and its line was anywhere in B's context (the model was shown it, and
  did the same again);
- **not given** when A is among B's NEAREST corrected issues of the whole read, as they stood at
  B's first analysis, and its line was not in B's context (it had left the window, was ranked
  out or was cut: the product forgot, not the model).

A decision neither made is a new mistake. Ranking the context's own lines keeps a line of the same
topic that was shown from being outranked by older twins that were not.

The rule is docs/rules.md's "Recurrences"; this module only applies it to corrections the rules
already found (IssueCorrection), and decides nothing about them again.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from corrections.quality.as_of import correct_as_of, read_as_of
from corrections.quality.similar_index import ReadIndex
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.render.nearest import issue_text
from corrections.rules.models import DuplicateOutcome, IssueCorrection
from corrections.rules.settings import RuleSettings

# How many of B's nearest corrected earlier issues count as similar to B.
NEAREST = 5


@dataclass(frozen=True, order=True)
class Decision:
    """One correcting decision: `removed` or `added` a label, or `duplicate` notice of #N objected."""

    kind: str  # "removed" | "added" | "duplicate"
    what: str  # the label's name, or the duplicate's issue number

    def words(self) -> str:
        """The decision as corrections.md's line says it."""
        if self.kind == "duplicate":
            return f"duplicate notice (of #{self.what}) objected to"
        return f"maintainer {self.kind} label {self.what}"


def decisions(correction: IssueCorrection) -> tuple[Decision, ...]:
    """The correcting decisions of one issue's first analysis, in a fixed order."""
    found = [Decision("removed", name) for name in correction.labels_removed]
    found += [Decision("added", name) for name in correction.labels_added]
    duplicate = correction.duplicate
    if duplicate is not None and duplicate.outcome is DuplicateOutcome.OBJECTED:
        found.append(Decision("duplicate", str(duplicate.of)))
    return tuple(found)


@dataclass(frozen=True)
class Recurrence:
    """A decision of B that maintainers had made on `earlier`, a similar issue; `given`: `earlier`
    was in B's context (else the nearest similar issue that made it, not shown)."""

    decision: Decision
    earlier: IssueCorrection  # as it stood at B's first analysis
    given: bool


def similar_before(
    outcome: ReadOutcome,
    *,
    number: int,
    title: str,
    body: str,
    moment: datetime,
    settings: RuleSettings,
    nearest: int = NEAREST,
) -> list[IssueCorrection]:
    """The `nearest` corrected issues of the read nearest to issue `number` (its title and body),
    as their corrections stood just before `moment`, nearest first.

    Candidates are the issues with a first analysis before the moment whose correction today is a
    correction (an issue whose every correction was undone since is left out); each is then taken
    as it stood at the moment, in the ranking's order, until `nearest` are found.
    """
    index = _index(outcome)
    reads = {n: read for n, at, read in index.analysed if at < moment and n != number}
    candidates = [index.corrected[n] for n in reads]
    ranked = index.texts.nearest_lazily(index.texts.walk, candidates, list(reads), issue_text(title, body))
    found: list[IssueCorrection] = []
    for candidate in ranked:
        then = read_as_of(reads[candidate.number], moment, settings)
        if then is None:
            continue
        line = correct_as_of(then, moment, outcome, settings)
        if line.is_corrected:
            found.append(line)
            if len(found) >= nearest:
                break
    return found


def nearest_shown(
    outcome: ReadOutcome, read: IssueRead, context: Sequence[IssueCorrection], *, nearest: int = NEAREST
) -> list[IssueCorrection]:
    """The `nearest` lines of B's context nearest to B, in the reader's ranking."""
    texts = _index(outcome).texts
    lines = [line for line in context if line.number != read.issue.number]
    ranked = texts.nearest_first(
        texts.shown, lines, [line.number for line in lines], issue_text(read.issue.title, read.issue.body)
    )
    return ranked[:nearest]


@dataclass(frozen=True)
class _Index:
    """What every ranking of one read shares: its texts' features, its corrected issues today."""

    window: tuple[IssueRead, ...]
    corrections: tuple[IssueCorrection, ...]
    texts: ReadIndex
    corrected: dict[int, IssueCorrection]  # today's corrections that are corrections, by number
    analysed: tuple[tuple[int, datetime, IssueRead], ...]  # the window's corrected first analyses, in order


class _LastIndex:
    """The index of the read asked about last (a report asks about one read, once an analysis)."""

    def __init__(self) -> None:
        self._last: _Index | None = None

    def of(self, outcome: ReadOutcome) -> _Index:
        last = self._last
        if last is None or last.window is not outcome.window or last.corrections is not outcome.corrections:
            texts = {r.issue.number: issue_text(r.issue.title, r.issue.body) for r in outcome.window}
            corrected = {c.number: c for c in outcome.corrections if c.is_corrected}
            last = _Index(
                window=outcome.window,
                corrections=outcome.corrections,
                texts=ReadIndex(texts),
                corrected=corrected,
                analysed=tuple(
                    (read.issue.number, read.first.at, read)
                    for read in outcome.window
                    if read.first is not None and read.issue.number in corrected
                ),
            )
            self._last = last
        return last


_index = _LastIndex().of


def recurrences(
    mine: Iterable[Decision],
    similar: Sequence[IssueCorrection],
    shown: Collection[IssueCorrection],
    context: Collection[int] = (),
) -> tuple[Recurrence, ...]:
    """Which of B's decisions recur, each given or not given (`similar`: B's nearest corrected
    issues of the read; `shown`: the nearest lines of B's context; both nearest first; `context`:
    the numbers of every line of B's context)."""
    found: list[Recurrence] = []
    for decision in mine:
        given = next((line for line in shown if decision in decisions(line)), None)
        if given is not None:
            found.append(Recurrence(decision, given, given=True))
            continue
        made = next((earlier for earlier in similar if decision in decisions(earlier)), None)
        if made is not None:
            # Its line was in the context, only ranked lower there: the model was shown it.
            found.append(Recurrence(decision, made, given=made.number in context))
    return tuple(found)


def similar_to(
    outcome: ReadOutcome, read: IssueRead, settings: RuleSettings, *, nearest: int = NEAREST
) -> list[IssueCorrection]:
    """`similar_before` for an issue of the read at its first analysis."""
    assert read.first is not None
    issue = read.issue
    return similar_before(
        outcome,
        number=issue.number,
        title=issue.title,
        body=issue.body,
        moment=read.first.at,
        settings=settings,
        nearest=nearest,
    )
