"""The label rule (docs/rules.md, "Label corrections"): labels removed, added and put forward.

One file holds the rule: the decision (`label_traces`), its trace (how each event on a label was
read), the counting of what was kept (`label_numbers`) and its words: the phrases of a
corrections.md line, explain's sentences and the quality report's definitions. A renderer calls
these; it never spells the rule's words itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from assistant.identity import is_assistant, is_person
from corrections.rules.models import Analysis, Issue, IssueCorrection, LabelChange, Show
from corrections.rules.settings import RuleSettings


class LabelRole(StrEnum):
    """How the rules read one event on a vocabulary label."""

    ASSISTANT_APPLIED = "assistant applied"
    ASSISTANT_OWN = "assistant's own change"
    # The assistant's account is shared (`github-actions`): another workflow may have made it.
    SHARED_ACCOUNT = "the assistant's shared account"
    NOT_A_PERSON = "not a person"
    BEFORE_ANALYSIS = "before the first analysis"
    COUNTS = "counts"


class LabelOutcome(StrEnum):
    """Exactly one per label: put forward (then removed or kept), added, or nothing."""

    REMOVED = "removed"  # put forward, and the last person's event removed it: a correction
    KEPT = "kept"  # put forward, and no person's last event removed it
    ADDED = "added"  # not put forward before a person added it: a correction
    NONE = "none"  # not put forward, and no person added it


class LabelReason(StrEnum):
    """Why a label ended as it did (the words are `_VERDICTS`)."""

    REMOVED = "removed"
    ADDED = "added"
    UNTOUCHED = "untouched"  # no person changed it after the analysis
    ADDED_BACK = "added back"  # a person removed it and added it back (undone)
    ALREADY_PUT_FORWARD = "already put forward"  # a person added what the assistant had put forward
    ADDED_THEN_REMOVED = "added then removed"  # a person added it and removed it again (undone)
    NOT_PUT_FORWARD = "not put forward"  # a person removed what the assistant never put forward


@dataclass(frozen=True)
class LabelStep:
    """One event on a label, where it stands in the timeline and how the rules read it."""

    index: int
    event: LabelChange
    role: LabelRole


@dataclass(frozen=True)
class LabelTrace:
    """One vocabulary label the first analysis proposed, the assistant applied, or anyone changed."""

    name: str
    proposed: bool  # the marker named it
    applied: bool  # the assistant applied it (at any time)
    steps: tuple[LabelStep, ...]
    deciding: LabelStep | None  # the last event by a person after the analysis
    outcome: LabelOutcome
    reason: LabelReason
    reapplied_after: bool = False  # the assistant applied it again after a person removed it

    @property
    def put_forward(self) -> bool:
        """Named by the marker or applied by the assistant, and not first added by a person."""
        return self.outcome in {LabelOutcome.REMOVED, LabelOutcome.KEPT}

    @property
    def decided_at(self) -> datetime | None:
        """When the event that made it a correction happened (None: no correction)."""
        if self.deciding is None or self.outcome not in {LabelOutcome.REMOVED, LabelOutcome.ADDED}:
            return None
        return self.deciding.event.at


def _proposed(analysis: Analysis, settings: RuleSettings) -> set[str]:
    """Vocabulary labels the analysis's marker named (the duplicate label never is one)."""
    vocabulary = settings.vocabulary
    return {
        name
        for label in analysis.labels
        if (name := vocabulary.canonical(label)) is not None and not settings.is_duplicate_label(name)
    }


def _label_trace(name: str, proposed: bool, steps: list[LabelStep]) -> LabelTrace:
    """The last person's event after the analysis decides; see `label_traces`."""
    counted = [step for step in steps if step.role is LabelRole.COUNTS]
    applied_at = [step.index for step in steps if step.role is LabelRole.ASSISTANT_APPLIED]
    deciding = counted[-1] if counted else None
    if deciding is None:
        put = proposed or bool(applied_at)
        outcome = LabelOutcome.KEPT if put else LabelOutcome.NONE
        return LabelTrace(
            name, proposed, bool(applied_at), tuple(steps), None, outcome, LabelReason.UNTOUCHED
        )
    applied_before = any(index < deciding.index for index in applied_at)
    earlier = [step.event.kind for step in counted[:-1]]
    reapplied = False
    if deciding.event.kind == "unlabeled":
        if proposed or applied_before:
            outcome, reason = LabelOutcome.REMOVED, LabelReason.REMOVED
            reapplied = any(index > deciding.index for index in applied_at)
        else:
            put = bool(applied_at)  # applied only after the removal: put forward, and kept
            outcome = LabelOutcome.KEPT if put else LabelOutcome.NONE
            reason = LabelReason.ADDED_THEN_REMOVED if "labeled" in earlier else LabelReason.NOT_PUT_FORWARD
    elif not proposed and not applied_before:
        outcome, reason = LabelOutcome.ADDED, LabelReason.ADDED
    else:
        outcome = LabelOutcome.KEPT
        reason = LabelReason.ADDED_BACK if "unlabeled" in earlier else LabelReason.ALREADY_PUT_FORWARD
    return LabelTrace(name, proposed, bool(applied_at), tuple(steps), deciding, outcome, reason, reapplied)


def _label_role(index: int, event: LabelChange, analysis: Analysis, settings: RuleSettings) -> LabelRole:
    if is_assistant(event.actor, settings.assistant):
        if settings.assistant.is_shared:  # a labeler workflow applies labels as that account too
            return LabelRole.SHARED_ACCOUNT
        return LabelRole.ASSISTANT_APPLIED if event.kind == "labeled" else LabelRole.ASSISTANT_OWN
    if not is_person(event.actor, settings.assistant):
        return LabelRole.NOT_A_PERSON
    if index < analysis.index:
        return LabelRole.BEFORE_ANALYSIS
    return LabelRole.COUNTS


def label_traces(issue: Issue, analysis: Analysis, settings: RuleSettings) -> tuple[LabelTrace, ...]:
    """Every vocabulary label the analysis proposed or any event touched, in vocabulary order.

    Removed: the analysis proposed the label or the assistant applied it (before), and the last
    event on it by a person (after the analysis) removed it. Added: neither proposed nor applied by
    the assistant before the last event by a person, which added it. A change a person undid is no
    correction; the assistant re-applying a label does not undo a person's removal. Put forward
    (the base of "kept"): proposed or applied by the assistant, unless a person added it first.
    With a shared account (`Identity.is_shared`) what it applied is not the assistant's: only the
    marker's labels are put forward.
    """
    vocabulary = settings.vocabulary
    proposed = _proposed(analysis, settings)
    steps: dict[str, list[LabelStep]] = {}
    for index, event in enumerate(issue.events):
        if not isinstance(event, LabelChange):
            continue
        name = vocabulary.canonical(event.label)
        if name is None or settings.is_duplicate_label(name):
            continue
        steps.setdefault(name, []).append(
            LabelStep(index, event, _label_role(index, event, analysis, settings))
        )
    return tuple(
        _label_trace(name, name in proposed, steps.get(name, []))
        for name in vocabulary.names
        if name in steps or name in proposed
    )


@dataclass(frozen=True)
class LabelNumbers:
    """How often one label (or all labels together) was put forward, kept, removed and added.

    Per label L, over some first analyses (docs/quality.md): proposed = analyses that put L
    forward; removed = of those, the ones where a person removed L; kept = proposed and not
    removed; added = analyses where a person added L that the assistant had not put forward. The
    one counting of the context's "kept" lines and of the quality report.
    """

    label: str
    proposed: int = 0
    kept: int = 0
    removed: int = 0
    added: int = 0

    @property
    def precision(self) -> float | None:
        """kept / proposed."""
        return self.kept / self.proposed if self.proposed else None

    @property
    def recall(self) -> float | None:
        """kept / (kept + added)."""
        return self.kept / (self.kept + self.added) if self.kept + self.added else None


def label_numbers(label: str, corrections: Iterable[IssueCorrection]) -> LabelNumbers:
    """The counts of one label over some first analyses, from the rules' trace (put forward, removed,
    added); nothing is decided here."""
    proposed = kept = removed = added = 0
    for correction in corrections:
        if label in correction.put_forward:
            proposed += 1
            if label in correction.labels_removed:
                removed += 1
            else:
                kept += 1
        if label in correction.labels_added:
            added += 1
    return LabelNumbers(label=label, proposed=proposed, kept=kept, removed=removed, added=added)


# The words: what the rule found, as corrections.md, explain and quality.md say it.


def correction_words(correction: IssueCorrection, name: Callable[[str], str]) -> list[str]:
    """The label corrections of a corrections.md line; `name` shows one (untrusted) label name."""
    parts: list[str] = []
    if correction.labels_removed:
        parts.append("maintainer removed label " + ", ".join(name(n) for n in correction.labels_removed))
    if correction.labels_added:
        parts.append("maintainer added label " + ", ".join(name(n) for n in correction.labels_added))
    return parts


def kept_words(numbers: LabelNumbers, name: str) -> str:
    """What maintainers kept of one label (corrections.md); `name` is the label as shown."""
    return f"{name}: kept {numbers.kept} of {numbers.proposed}"


# The quality report's definitions of its label columns (quality.md, below the table).
QUALITY_DEFINITIONS = (
    "Proposed: the first analysis named the label or the assistant applied it. Removed: a person "
    "removed it after the analysis (and did not undo that). Kept: proposed and not removed. Added: a "
    "person added a label the assistant had not put forward. Precision = kept / proposed; "
    "recall = kept / (kept + added)."
)

_VERDICTS = {
    (LabelOutcome.REMOVED, LabelReason.REMOVED): (
        "learned: a maintainer removed this label (the last change by a person removed it)"
    ),
    (LabelOutcome.ADDED, LabelReason.ADDED): (
        "learned: a maintainer added this label (the assistant had not put it forward)"
    ),
    (LabelOutcome.KEPT, LabelReason.UNTOUCHED): "kept: no person changed it after the analysis",
    (LabelOutcome.KEPT, LabelReason.ADDED_BACK): (
        "kept, no correction: a person removed it and added it back (undone)"
    ),
    (LabelOutcome.KEPT, LabelReason.ALREADY_PUT_FORWARD): (
        "kept, no correction: a person added it, but the assistant had put it forward already"
    ),
    (LabelOutcome.KEPT, LabelReason.NOT_PUT_FORWARD): (
        "kept, no correction: a person removed it before the assistant applied it"
    ),
    (LabelOutcome.KEPT, LabelReason.ADDED_THEN_REMOVED): (
        "kept, no correction: a person added and removed it before the assistant applied it"
    ),
    (LabelOutcome.NONE, LabelReason.UNTOUCHED): "nothing to learn",
    (LabelOutcome.NONE, LabelReason.ADDED_THEN_REMOVED): (
        "no correction: a person added it and removed it again (undone)"
    ),
    (LabelOutcome.NONE, LabelReason.NOT_PUT_FORWARD): (
        "no correction: removed, but the assistant had neither proposed nor applied it"
    ),
}

_ROLES = {
    LabelRole.ASSISTANT_APPLIED: "the assistant applied it",
    LabelRole.ASSISTANT_OWN: "the assistant's own change, not a correction",
    LabelRole.SHARED_ACCOUNT: "by the assistant's account, which other workflows share: only the "
    "analysis's marker says what the assistant put forward",
    LabelRole.NOT_A_PERSON: "not a person (bots, apps and deleted accounts do not count)",
    LabelRole.BEFORE_ANALYSIS: "before the first analysis, so not a correction of it",
    LabelRole.COUNTS: "counts (a person, after the first analysis)",
}


def explain_lines(
    issue: Issue, analysis: Analysis, traces: Iterable[LabelTrace], settings: RuleSettings, show: Show
) -> list[str]:
    """`explain`'s lines on the labels: each event on a label, how it was read, and the verdict."""
    vocabulary = settings.vocabulary
    lines: list[str] = []
    for label in analysis.labels:
        if vocabulary.canonical(label) is None:
            lines.append(
                f"Label {show.label(label)} (proposed): outside the vocabulary (labels.md): never learned."
            )
    for trace in traces:
        lines.append(
            f"Label {show.label(trace.name)}"
            + (" (proposed by the first analysis):" if trace.proposed else ":")
        )
        for step in trace.steps:
            event = step.event
            verb = "added" if event.kind == "labeled" else "removed"
            lines.append(f"  {show.when(event)} {show.who(event.actor)} {verb} it: {_ROLES[step.role]}")
        verdict = _VERDICTS[(trace.outcome, trace.reason)]
        if trace.reapplied_after:
            verdict += "; the assistant applying it again afterwards does not undo that"
        lines.append("  => " + verdict)
    outside = sorted(
        {
            e.label
            for e in issue.events
            if isinstance(e, LabelChange) and vocabulary.canonical(e.label) is None
        }
    )
    if outside:
        names = ", ".join(show.label(n) for n in outside)
        lines.append(f"Labels outside the vocabulary (labels.md), never learned: {names}.")
    return lines
