"""What the correction rules read, as plain frozen models (no I/O, no GitHub shapes)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, model_validator

from assistant.identity import is_maintainer, may_push
from corrections.rules.analysis_marker import LeftOut, Receipt


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Actor(_Frozen):
    """Someone who did something; `typename` is GraphQL's (User, Bot, Mannequin, ...)."""

    login: str
    typename: str = "User"


class Comment(_Frozen):
    kind: Literal["comment"] = "comment"
    node_id: str
    database_id: int | None = None
    at: datetime
    author: Actor | None
    body: str
    # GitHub's authorAssociation: an order of permission look-ups only, never proof.
    association: str | None = None
    # Hidden by a maintainer: the reason (OFF_TOPIC, SPAM, ABUSE, OUTDATED, RESOLVED, DUPLICATE,
    # HIDDEN without one); None when shown.
    hidden: str | None = None


class LabelChange(_Frozen):
    kind: Literal["labeled", "unlabeled"]
    at: datetime
    actor: Actor | None
    label: str


class Closed(_Frozen):
    kind: Literal["closed"] = "closed"
    at: datetime
    actor: Actor | None
    state_reason: str | None = None
    duplicate_of: int | None = None  # the issue a close as DUPLICATE names (GitHub's `duplicateOf`)


class Reopened(_Frozen):
    kind: Literal["reopened"] = "reopened"
    at: datetime
    actor: Actor | None


class DuplicateMark(_Frozen):
    kind: Literal["marked_as_duplicate", "unmarked_as_duplicate"]
    at: datetime
    actor: Actor | None
    canonical: int | None = None


Event = Comment | LabelChange | Closed | Reopened | DuplicateMark


class Issue(_Frozen):
    """One issue with the part of its timeline the rules read, in time order."""

    number: int
    title: str
    body: str = ""
    author: Actor | None = None
    created_at: datetime
    updated_at: datetime
    state: str = "OPEN"
    state_reason: str | None = None
    events: tuple[Event, ...] = ()
    timeline_complete: bool = True


class Analysis(_Frozen):
    """An assistant comment carrying a valid analysis marker; `index` is its place in the timeline."""

    index: int
    node_id: str
    database_id: int | None
    at: datetime
    kind: Literal["first", "follow-up"]
    labels: tuple[str, ...] = ()
    duplicate_of: int | None = None
    # What the model was given (the marker's "context"); None for a marker without one.
    receipt: Receipt | None = None
    # What the second look left out of the model's draft (the marker's "second_look").
    left_out: tuple[LeftOut, ...] = ()


class Permission(StrEnum):
    """A login's permission on the repository, as GitHub reports it."""

    ADMIN = "ADMIN"
    MAINTAIN = "MAINTAIN"
    WRITE = "WRITE"
    TRIAGE = "TRIAGE"
    READ = "READ"
    NONE = "NONE"

    @property
    def is_maintainer(self) -> bool:
        """TRIAGE or more: may change labels and say /assistant not-duplicate."""
        return is_maintainer(self.value)

    @property
    def is_pusher(self) -> bool:
        """WRITE or more: may push."""
        return may_push(self.value)


# A login's permission, keyed by normalize_login; a missing key means it could not be read.
Permissions = Mapping[str, Permission]


class DuplicateOutcome(StrEnum):
    CONFIRMED = "confirmed"
    OBJECTED = "objected"
    OPEN = "open"


class Objector(StrEnum):
    """Who objected to a duplicate notice (docs/rules.md, "Duplicate notices")."""

    MAINTAINER = "maintainer"  # the command, the label removed: someone with triage access
    OTHER = "other"  # only comments by people without triage access


class DuplicateNotice(_Frozen):
    """The outcome of a duplicate notice; `at` is when the deciding event (an objection) happened,
    `by` who objected (None unless objected), `instead` the other issue it was closed (or marked)
    as a duplicate of, when that is the objection."""

    of: int
    outcome: DuplicateOutcome
    at: datetime | None = None
    by: Objector | None = None
    instead: int | None = None

    @model_validator(mode="after")
    def _who_objected(self) -> DuplicateNotice:
        if (self.by is not None) != self.objected:
            raise ValueError("by: who objected is given exactly when the outcome is objected")
        return self

    @property
    def objected(self) -> bool:
        return self.outcome is DuplicateOutcome.OBJECTED


class Reaction(_Frozen):
    """A reaction on a comment: who (None for a deleted account or a bot) and when, if known."""

    actor: Actor | None
    at: datetime | None = None


class IssueCorrection(_Frozen):
    """Everything the rules found on one issue of the window."""

    number: int
    title: str
    labels_removed: tuple[str, ...] = ()
    labels_added: tuple[str, ...] = ()
    duplicate: DuplicateNotice | None = None
    thumbs_down: int = 0
    # Vocabulary labels the first analysis put forward (LabelTrace.put_forward): the base of "kept".
    put_forward: tuple[str, ...] = ()
    # When the latest correcting event happened (None when the issue is not corrected).
    corrected_at: datetime | None = None

    @property
    def objection(self) -> DuplicateNotice | None:
        """The duplicate notice when it was objected to (a correction), else None."""
        return self.duplicate if self.duplicate is not None and self.duplicate.objected else None

    @property
    def is_corrected(self) -> bool:
        """A removed or added label, an objected duplicate notice, or a counted 👎."""
        return bool(self.labels_removed or self.labels_added or self.objection or self.thumbs_down)

    @property
    def by_maintainer(self) -> bool:
        """Whether someone with triage access corrected it: a label removed or added (which
        takes triage access), a counted 👎, or a maintainer's objection; not when the only
        correction is an objection by someone without triage access."""
        objection = self.objection
        by_maintainer = objection is not None and objection.by is Objector.MAINTAINER
        return bool(self.labels_removed or self.labels_added or self.thumbs_down or by_maintainer)


class Show(Protocol):
    """How a renderer shows what a rule's words name (`explain`): a person, a moment, a label, each
    cleaned its own way; the words around them are the rule's (corrections/rules/labels.py, ...)."""

    def who(self, actor: Actor | None) -> str: ...
    def when(self, event: Event) -> str: ...
    def label(self, name: str) -> str: ...
