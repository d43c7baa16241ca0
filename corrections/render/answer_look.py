"""The second look applied to a draft of `corrections answer` (the rule is
corrections/rules/second_look.py; the target's state, when it decides, is asked by the command).
"""

from __future__ import annotations

from dataclasses import replace

from corrections.render.answer import Draft, Known
from corrections.rules.analysis_marker import LeftOut
from corrections.rules.second_look import TargetState, look, needs_target_state


def needs_state(draft: Draft, known: Known) -> bool:
    """Whether the second look needs the duplicate target's state from GitHub (one request)."""
    return known.second_look and needs_target_state(draft.duplicate_of, known.objected)


def looked(
    draft: Draft, known: Known, *, repository: str | None, state: TargetState | None
) -> tuple[Draft, tuple[LeftOut, ...]]:
    """The draft after the second look, and what it left out (nothing when it is off)."""
    if not known.second_look:
        return draft, ()
    found = look(
        draft.labels,
        draft.duplicate_of,
        repository=repository or known.repository or "",
        neighbours=known.neighbours,
        objected=known.objected,
        state=state,
        kept_in_window=known.kept_in_window,
    )
    return replace(draft, labels=found.labels, duplicate_of=found.duplicate_of), found.left_out
