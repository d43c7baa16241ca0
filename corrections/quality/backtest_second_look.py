"""The backtest's second-look column: each answer given with the context, held against what the
context of its moment held, by the rule `corrections answer` posts by
(corrections/rules/second_look.py), so an adopter sees what the second look adds for their model.

One read, no request per answer: the objections and the nearest corrected issues are the past
context's (as of the analysis); a duplicate target's state is that of the read's issue as of the
analysis. A target the read does not hold is named as the model answered (`corrections answer`
would ask GitHub; the backtest cannot ask as of a past moment), so the column is a lower bound of
what the second look leaves out. A lock is not in the read: the backtest counts no locked target.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from corrections.quality.backtest_score import Answer, Scored, proposed
from corrections.read.outcome import ReadOutcome
from corrections.render.files import kept_labels, kept_numbers
from corrections.render.nearest import ordered
from corrections.rules.models import Objector
from corrections.rules.second_look import Look, Neighbour, TargetState, look
from corrections.rules.settings import RuleSettings


def _state(past: ReadOutcome, number: int) -> TargetState:
    for read in past.window:
        if read.issue.number == number:
            issue = read.issue
            return TargetState(
                kind="issue",
                repository=past.repository,
                open=issue.state == "OPEN",
                state_reason=issue.state_reason,
            )
    return TargetState(kind="issue", repository=past.repository)  # not in the read: as answered


def look_in_context(
    labels: Collection[str], duplicate_of: int | None, past: ReadOutcome, number: int
) -> Look:
    """The second look at issue `number`'s draft, held against the context `past` of its moment:
    the nearest corrected issues vote on its labels, the context's objections and issues decide
    its duplicate target (the backtest's column and the loop, bench/loop_graded.py)."""
    corrections = [c for c in ordered(past) if c.number != number]
    neighbours = [
        Neighbour(
            c.number,
            frozenset(n.casefold() for n in c.labels_removed),
            frozenset(n.casefold() for n in kept_labels(c)),
        )
        for c in corrections
    ]
    objected = frozenset(
        c.objection.of
        for c in corrections
        if c.objection is not None and c.objection.by is Objector.MAINTAINER
    )
    return look(
        sorted(labels),
        duplicate_of,
        repository=past.repository,
        neighbours=neighbours,
        objected=objected,
        state=_state(past, duplicate_of) if duplicate_of is not None else None,
        kept_in_window=frozenset(n.label.casefold() for n in kept_numbers(past) if n.kept > 0),
    )


def second_looked(told: Scored, past: ReadOutcome, settings: RuleSettings) -> Scored:
    """`told` (an answer given with the context `past`) after the second look."""
    found = look_in_context(told.labels, told.answer.duplicate_of, past, told.truth.number)
    answer = Answer(labels=found.labels, duplicate_of=found.duplicate_of)
    return replace(
        told, answer=answer, labels=proposed(answer, settings.vocabulary, settings.duplicate_label)
    )
