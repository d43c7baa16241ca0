"""What the rules decided on one issue, and on what: the trace `rules.trace` returns (pure data).

The context, the quality numbers and `explain` all read this one trace, so they cannot disagree:
`quality.py` counts its outcomes and `explain.py` puts its steps into words; neither decides again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from corrections.rules.models import (
    Actor,
    Analysis,
    Comment,
    DuplicateNotice,
    DuplicateOutcome,
    IssueCorrection,
    LabelChange,
    Objector,
    Reaction,
)


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
    """Why a label ended as it did (the words are explain's)."""

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


class DuplicateRole(StrEnum):
    """How the rules read one event after a duplicate notice."""

    PERMISSION_NOT_READ = "permission not read"
    NOT_A_MAINTAINER = "comment by someone who is not a maintainer: an objection"
    NOT_DUPLICATE = "not-duplicate command: an objection"
    COMMENT = "a maintainer's comment without the command"
    LABEL_REMOVED = "a maintainer removed the duplicate label: an objection"
    LABEL_REMOVED_NOT_COUNTED = "the duplicate label removed by someone who is not a maintainer"


# A maintainer's objection (the command, the label removed) decides the notice at once; a comment
# by someone without triage access objects too, but the reading goes on to find a maintainer's.
MAINTAINER_OBJECTIONS = frozenset({DuplicateRole.NOT_DUPLICATE, DuplicateRole.LABEL_REMOVED})
OTHER_OBJECTIONS = frozenset({DuplicateRole.NOT_A_MAINTAINER})


@dataclass(frozen=True)
class DuplicateStep:
    """One event read against the duplicate notice."""

    event: Comment | LabelChange
    role: DuplicateRole


@dataclass(frozen=True)
class DuplicateTrace:
    """The duplicate notice of the first analysis, its outcome, and the events read up to the decision."""

    of: int
    outcome: DuplicateOutcome
    # Empty when confirmed (the issue's state decided); read up to a maintainer's objection, or to
    # the end when only people without triage access objected.
    steps: tuple[DuplicateStep, ...] = ()

    @property
    def deciding(self) -> DuplicateStep | None:
        """The objection that decides: a maintainer's if any (the last step read), else the first
        comment by someone without triage access; None unless objected."""
        if self.outcome is not DuplicateOutcome.OBJECTED:
            return None
        for roles in (MAINTAINER_OBJECTIONS, OTHER_OBJECTIONS):
            found = next((step for step in self.steps if step.role in roles), None)
            if found is not None:
                return found
        return None

    @property
    def by(self) -> Objector | None:
        """Who objected: a maintainer (the command, the label removed) or only other people."""
        deciding = self.deciding
        if deciding is None:
            return None
        return Objector.MAINTAINER if deciding.role in MAINTAINER_OBJECTIONS else Objector.OTHER

    @property
    def notice(self) -> DuplicateNotice:
        """The outcome as the context and the quality numbers hold it: the deciding objection's
        date and who made it."""
        deciding = self.deciding
        return DuplicateNotice(
            of=self.of, outcome=self.outcome, at=deciding.event.at if deciding else None, by=self.by
        )


class ThumbRole(StrEnum):
    """How the rules read one 👎 on the first analysis."""

    NOT_A_PERSON = "not a person"
    PERMISSION_NOT_READ = "permission not read"
    NO_PUSH = "no push access"
    COUNTED_ALREADY = "counted once already"
    COUNTED = "counted"


@dataclass(frozen=True)
class ThumbStep:
    """One 👎 (who, and when if known) and whether it counted."""

    reaction: Reaction
    role: ThumbRole

    @property
    def actor(self) -> Actor | None:
        return self.reaction.actor


@dataclass(frozen=True)
class IssueTrace:
    """Every decision of the rules on one issue with a first analysis."""

    number: int
    title: str
    analysis: Analysis
    labels: tuple[LabelTrace, ...]  # vocabulary order
    duplicate: DuplicateTrace | None
    thumbs: tuple[ThumbStep, ...]

    def _names(self, outcome: LabelOutcome) -> tuple[str, ...]:
        return tuple(sorted(label.name for label in self.labels if label.outcome is outcome))

    @property
    def removed(self) -> tuple[str, ...]:
        return self._names(LabelOutcome.REMOVED)

    @property
    def added(self) -> tuple[str, ...]:
        return self._names(LabelOutcome.ADDED)

    @property
    def kept(self) -> tuple[str, ...]:
        return self._names(LabelOutcome.KEPT)

    @property
    def put_forward(self) -> tuple[str, ...]:
        """The base of "kept" in the quality numbers: removed or kept, never added."""
        return tuple(sorted(label.name for label in self.labels if label.put_forward))

    @property
    def counted(self) -> tuple[Actor, ...]:
        """The 👎 that count: one per person with push access."""
        return tuple(step.actor for step in self.thumbs if step.role is ThumbRole.COUNTED and step.actor)

    @property
    def decided_at(self) -> datetime | None:
        """When the latest correcting event happened: the last person's event that decided a label
        correction, the objection to the duplicate notice, or the latest counted 👎."""
        moments = [label.decided_at for label in self.labels]
        if self.duplicate is not None and self.duplicate.deciding is not None:
            moments.append(self.duplicate.deciding.event.at)
        moments += [step.reaction.at for step in self.thumbs if step.role is ThumbRole.COUNTED]
        return max((moment for moment in moments if moment is not None), default=None)

    def correction(self) -> IssueCorrection:
        """What the context and the quality numbers hold of this issue."""
        return IssueCorrection(
            number=self.number,
            title=self.title,
            labels_removed=self.removed,
            labels_added=self.added,
            duplicate=None if self.duplicate is None else self.duplicate.notice,
            thumbs_down=len(self.counted),
            put_forward=self.put_forward,
            corrected_at=self.decided_at,
        )
