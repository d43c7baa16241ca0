"""Correction lines that make the same decision, collapsed into one (pure).

A long history repeats itself: the same label removed on twenty issues says one thing twenty
times. Lines whose decisions are the same words of the rules (`correction_parts` without the
pointer to a reason: the same labels removed and added, the same objection by the same kind of
person, the same count of 👎) become one line that leads with its nearest issue, says how many
issues made that decision and names its next nearest ones as examples (docs/rules.md, "One line
per corrected issue"). The order of the lines is the order of their nearest issues, so a ranking
of the corrections is a ranking of the lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from corrections.rules.models import IssueCorrection

# The issues a collapsed line names: its lead and the next nearest ones, the examples its
# excerpts come from first.
EXAMPLES = 3


@dataclass(frozen=True)
class CorrectionLine:
    """One line of corrections.md: its issues (nearest first), all making the same decision."""

    issues: tuple[IssueCorrection, ...]

    @property
    def lead(self) -> IssueCorrection:
        """The nearest issue, whose number, title and words the line starts with."""
        return self.issues[0]

    @property
    def examples(self) -> tuple[IssueCorrection, ...]:
        """The issues the line names: the lead and the next nearest ones."""
        return self.issues[:EXAMPLES]

    @property
    def collapsed(self) -> bool:
        """The line stands for more than one issue."""
        return len(self.issues) > 1


def collapse(
    ordered: Sequence[IssueCorrection], decision: Callable[[IssueCorrection], tuple[str, ...]]
) -> list[CorrectionLine]:
    """The lines of `ordered` (corrections.md's order), those with the same `decision` made one,
    at the place of the first of them; each line's issues keep the order they came in."""
    groups: dict[tuple[str, ...], list[IssueCorrection]] = {}
    for correction in ordered:
        groups.setdefault(decision(correction), []).append(correction)
    return [CorrectionLine(tuple(issues)) for issues in groups.values()]


def excerpt_numbers(lines: Sequence[Sequence[int]]) -> list[int]:
    """The corrected issues (each line's, nearest first) in the order the prompt tries their
    excerpts: each line's examples, line by line, then the rest of every line's issues."""
    first = [number for line in lines for number in line[:EXAMPLES]]
    rest = [number for line in lines for number in line[EXAMPLES:]]
    return [*first, *rest]
