"""The world file (docs/world-format.md): its frozen models, loading and dumping.

A world is one repository as GitHub would hold it. The models mirror the file; what GitHub
derives from it (an issue's state, state reason, labels, updatedAt) is computed by
``derive``; the mutable, indexed store the server works on lives in ``emulator.store``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

REACTION_CONTENTS = ("THUMBS_UP", "THUMBS_DOWN", "LAUGH", "HOORAY", "CONFUSED", "HEART", "ROCKET", "EYES")
ReactionContent = Literal[
    "THUMBS_UP", "THUMBS_DOWN", "LAUGH", "HOORAY", "CONFUSED", "HEART", "ROCKET", "EYES"
]
StateReason = Literal["COMPLETED", "NOT_PLANNED", "DUPLICATE"]
Permission = Literal["ADMIN", "MAINTAIN", "WRITE", "TRIAGE", "READ"]
ActorType = Literal["User", "Bot", "Mannequin", "Organization"]


class WorldError(ValueError):
    """A world file that cannot be read; the message names what is wrong."""


class Model(BaseModel):
    """Frozen and strict about keys; a ``note`` key is a comment (kept out of dumps)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    note: str | None = Field(default=None, exclude=True)


class Reaction(Model):
    """One reaction; ``user`` null is a deleted account."""

    user: str | None
    content: ReactionContent
    at: AwareDatetime


class ReviewComment(Model):
    """A pull request review comment (GitHub's PullRequestReviewComment); ids are database ids.

    ``updated_at`` (optional, emulator extra) marks an edit.
    """

    id: int
    author: str | None
    at: AwareDatetime
    body: str = ""
    updated_at: AwareDatetime | None = None
    reactions: tuple[Reaction, ...] = ()


class CommentItem(ReviewComment):
    """An issue comment: a review comment's keys, in the timeline."""

    type: Literal["comment"]
    # Hidden by a maintainer: GitHub's `minimizedReason` ("off-topic", "outdated", "spam", ...).
    minimized: str | None = None


class LabelItem(Model):
    """A label added or removed."""

    type: Literal["labeled", "unlabeled"]
    actor: str | None
    label: str
    at: AwareDatetime


class ClosedItem(Model):
    """The issue was closed, with a state reason (COMPLETED unless given) and, for a close as a
    duplicate, the issue it duplicates (GitHub's `ClosedEvent.duplicateOf`)."""

    type: Literal["closed"]
    actor: str | None
    at: AwareDatetime
    state_reason: StateReason = "COMPLETED"
    duplicate_of: int | None = None

    @field_validator("state_reason", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value


class ReopenedItem(Model):
    """The issue was reopened."""

    type: Literal["reopened"]
    actor: str | None
    at: AwareDatetime


class DuplicateItem(Model):
    """Marked (or unmarked) as a duplicate of ``canonical``."""

    type: Literal["marked_as_duplicate", "unmarked_as_duplicate"]
    actor: str | None
    canonical: int
    at: AwareDatetime


TimelineItem = Annotated[
    CommentItem | LabelItem | ClosedItem | ReopenedItem | DuplicateItem, Field(discriminator="type")
]


class ReviewThread(Model):
    """Review comments on one line of one file, as GitHub groups them: a finding and its replies."""

    path: str
    line: int | None = None
    comments: tuple[ReviewComment, ...] = Field(min_length=1)


class Review(Model):
    """A submitted pull request review: its body, and the threads it started."""

    id: int
    author: str | None
    state: Literal["COMMENTED", "APPROVED", "CHANGES_REQUESTED", "DISMISSED"] = "COMMENTED"
    at: AwareDatetime
    body: str = ""
    updated_at: AwareDatetime | None = None
    threads: tuple[ReviewThread, ...] = ()
    reactions: tuple[Reaction, ...] = ()


class Issue(Model):
    """An issue; for pull requests also ``base``/``head`` and the emulator extras ``merged``/``draft``.

    A pull request's ``head_repository`` ("owner/name") other than the world's repository makes it
    a pull request from a fork (``isCrossRepository``).
    """

    number: int
    title: str
    body: str = ""
    author: str | None
    created_at: AwareDatetime
    timeline: tuple[TimelineItem, ...] = ()
    reactions: tuple[Reaction, ...] = ()
    locked: bool = False  # its conversation is locked (`locked`, GitHub's Lockable)
    base: str | None = None
    head: str | None = None
    head_repository: Annotated[str, Field(pattern=r"^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$")] | None = None
    merged: bool = False
    draft: bool = False
    reviews: tuple[Review, ...] = ()  # pull requests only


class RepositoryInfo(Model):
    """Who and what the repository is."""

    owner: str
    name: str
    default_branch: str = "main"


class LabelInfo(Model):
    """A label's looks (emulator extra ``labels`` key)."""

    name: str
    color: str = "ededed"
    description: str | None = None


class RateLimitInfo(Model):
    """The per-token GraphQL budget (emulator extra ``rate_limit`` key); without ``limit``, GitHub's:
    5,000 points an hour a token, 1,000 for the repository's workflow tokens together."""

    limit: int | None = None
    remaining: int | None = None
    reset_in_s: int = 3600


class ServerTime(Model):
    """The server-time model (emulator extra ``server_time`` key): how long GitHub would take.

    A query's modelled time is ``base_ms + ms_per_node * nodes`` (``nodes`` as ``rateLimit.
    nodeCount`` counts them); over ``limit_ms`` (GitHub's 10 s) it gets ``answer`` instead of its
    data, and its points are charged all the same. Nothing sleeps unless ``sleep_scale`` > 0
    (then each answer waits its modelled time times the scale).
    """

    ms_per_node: float = Field(default=0.0, ge=0)
    base_ms: float = Field(default=0.0, ge=0)
    limit_ms: float = Field(default=10_000.0, gt=0)
    answer: Literal["timeout_502", "timeout_200", "resource_limits"] = "timeout_502"
    sleep_scale: float = Field(default=0.0, ge=0, le=1)

    def modelled_ms(self, nodes: int) -> float:
        """How long GitHub would work on a query of `nodes` nodes before answering or giving up."""
        return self.base_ms + self.ms_per_node * nodes


class WorldCommit(Model):
    """One commit of a branch's history (emulator extra ``commits`` key): when, and its whole tree."""

    at: AwareDatetime
    files: dict[str, str] = {}
    message: str = "update"


class WorldFile(BaseModel):
    """The whole file; unknown top-level keys are ignored (worlds carry notes)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    repository: RepositoryInfo
    users: dict[str, ActorType] = {}
    permissions: dict[str, Permission] = {}
    org_members: dict[str, Permission] = {}
    team_access: dict[str, Permission] = {}
    # login -> the name of a custom repository role built on the login's `permissions` level
    custom_roles: dict[str, str] = {}
    files: dict[str, dict[str, str]] = {}
    issues: tuple[Issue, ...] = ()
    pull_requests: tuple[Issue, ...] = ()
    # What a workflow's GITHUB_TOKEN gets on github.com (docs/emulator.md): GraphQL's collaborator
    # list refused, REST's permission endpoint answering. "allowed" lists them (a pusher's token).
    collaborators_via_graphql: Literal["allowed", "forbidden"] = "forbidden"
    # "no_push": REST's permission endpoint answers 403, as for a token without push access.
    rest_permission: Literal["allowed", "no_push"] = "allowed"
    pull_requests_allowed: bool = True
    # The login of a token the ``tokens`` map does not name; None (the key left out): the
    # default token, a workflow's GITHUB_TOKEN, which acts as the Bot ``github-actions``.
    viewer: str | None = None
    tokens: dict[str, str] = {}
    associations: dict[str, str] = {}
    labels: tuple[LabelInfo, ...] = ()
    rate_limit: RateLimitInfo = RateLimitInfo()
    faults: tuple[dict[str, Any], ...] = ()
    latency_ms: int = 0
    server_time: ServerTime | None = None
    now: AwareDatetime | None = None
    heads: dict[str, str] = {}
    # A branch's commits, oldest first, when its history matters (Commit.history): the last one's
    # tree is the branch's head and replaces its `files` entry.
    commits: dict[str, tuple[WorldCommit, ...]] = {}

    @field_validator("permissions", "org_members", "team_access", mode="before")
    @classmethod
    def _upper_permissions(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: v.upper() if isinstance(v, str) else v for k, v in value.items()}
        return value

    @model_validator(mode="after")
    def _numbers_unique(self) -> WorldFile:
        seen: set[int] = set()
        for item in (*self.issues, *self.pull_requests):
            if item.number in seen:
                raise ValueError(
                    f"number {item.number} is used twice (issues and pull requests share numbers)"
                )
            seen.add(item.number)
        ids: set[int] = set()
        for issue in self.issues:
            if issue.reviews:
                raise ValueError(f"issue {issue.number} has reviews: only pull requests have them")
        for item in (*self.issues, *self.pull_requests):
            for found in comment_ids(item):
                if found in ids:
                    raise ValueError(f"comment id {found} is used twice")
                ids.add(found)
        return self


def comment_ids(item: Issue) -> list[int]:
    """The ids of an issue's comments, and of a pull request's reviews and review comments."""
    found = [event.id for event in item.timeline if isinstance(event, CommentItem)]
    for review in item.reviews:
        found.append(review.id)
        found += [comment.id for thread in review.threads for comment in thread.comments]
    return found


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(top level)"
    more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


def parse_world(data: Any) -> WorldFile:
    """Validate a world given as a dict or JSON text.

    Raises WorldError naming the first wrong key.
    """
    try:
        if isinstance(data, str | bytes):
            return WorldFile.model_validate_json(data)
        return WorldFile.model_validate(data)
    except ValidationError as error:
        raise WorldError(_describe(error)) from error


def load_world(path: str | Path) -> WorldFile:
    """Read and validate a world file; raises WorldError with the file's name in the message."""
    file = Path(path)
    try:
        text = file.read_bytes()
    except OSError as error:
        raise WorldError(f"{file}: {error.strerror or error}") from error
    try:
        return parse_world(text)
    except WorldError as error:
        raise WorldError(f"{file}: {error}") from error


def iso(moment: datetime) -> str:
    """GitHub's timestamp format: UTC, seconds, ``Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Derived:
    """What GitHub derives from an issue's timeline."""

    closed: bool
    state_reason: str | None
    closed_at: datetime | None
    labels: tuple[str, ...]
    updated_at: datetime
    comment_count: int
    duplicate_of: int | None


def derive(issue: Issue) -> Derived:
    """State, state reason, labels (in the order applied), updatedAt and comment count from the timeline."""
    closed = False
    reason: str | None = None
    closed_at: datetime | None = None
    labels: dict[str, None] = {}
    updated = issue.created_at
    comments = 0
    duplicate_of: int | None = None
    for review in issue.reviews:  # a review, and each of its comments, moves a pull request's updatedAt
        updated = max(updated, review.at, review.updated_at or review.at)
        for thread in review.threads:
            for comment in thread.comments:
                updated = max(updated, comment.at, comment.updated_at or comment.at)
    for item in issue.timeline:
        updated = max(updated, item.at)
        if isinstance(item, CommentItem):
            comments += 1
            if item.updated_at is not None:
                updated = max(updated, item.updated_at)
        elif isinstance(item, LabelItem):
            if item.type == "labeled":
                labels[item.label] = None
            else:
                labels.pop(item.label, None)
        elif isinstance(item, ClosedItem):
            closed, reason, closed_at = True, item.state_reason, item.at
            if item.state_reason == "DUPLICATE" and item.duplicate_of is not None:
                duplicate_of = item.duplicate_of
        elif isinstance(item, ReopenedItem):
            closed, reason, closed_at = False, "REOPENED", None
        else:
            duplicate_of = item.canonical if item.type == "marked_as_duplicate" else None
    return Derived(closed, reason, closed_at, tuple(labels), updated, comments, duplicate_of)


def dump_json(world: dict[str, Any]) -> str:
    """A world dict as indented JSON text."""
    return json.dumps(world, indent=2, ensure_ascii=False) + "\n"
