"""Pydantic models of GitHub's answers, mirroring the selections in the .graphql files.

Parsing an answer into these models is the check that it has the shape that was asked for;
a mismatch is a BadResponse, never a crash further down.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from queries.errors import BadResponse

Parsed = TypeVar("Parsed", bound=BaseModel)


def parse_answer(model: type[Parsed], value: Any, what: str) -> Parsed:
    """`value` as `model`; an answer of another shape is a BadResponse naming `what`."""
    try:
        return model.model_validate(value)
    except ValidationError as error:
        raise BadResponse(
            f"{what}: answer does not match the query ({error.error_count()} problems)"
        ) from error


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="ignore")


class ActorRef(_Model):
    """An actor as GraphQL gives it: a bot's login has no `[bot]` suffix."""

    typename: str = Field(alias="__typename")
    login: str


class PageInfo(_Model):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: str | None = Field(alias="endCursor")


class RateLimitInfo(_Model):
    cost: int
    limit: int
    remaining: int
    reset_at: datetime = Field(alias="resetAt")
    node_count: int = Field(alias="nodeCount")


class NumberRef(_Model):
    number: int | None = None


class CommentNode(_Model):
    typename: Literal["IssueComment"] = Field(alias="__typename")
    id: str
    # databaseId is a 32-bit Int that comment ids have outgrown; fullDatabaseId is a BigInt string.
    database_id: int | None = Field(alias="fullDatabaseId")
    created_at: datetime = Field(alias="createdAt")
    body: str
    author: ActorRef | None


class LabeledNode(_Model):
    typename: Literal["LabeledEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    label: LabelName


class UnlabeledNode(_Model):
    typename: Literal["UnlabeledEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    label: LabelName


class LabelName(_Model):
    name: str


class ClosedNode(_Model):
    typename: Literal["ClosedEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    state_reason: str | None = Field(alias="stateReason")


class ReopenedNode(_Model):
    typename: Literal["ReopenedEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None


class MarkedNode(_Model):
    typename: Literal["MarkedAsDuplicateEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    canonical: NumberRef | None


class UnmarkedNode(_Model):
    typename: Literal["UnmarkedAsDuplicateEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    canonical: NumberRef | None


TimelineNode = Annotated[
    CommentNode | LabeledNode | UnlabeledNode | ClosedNode | ReopenedNode | MarkedNode | UnmarkedNode,
    Field(discriminator="typename"),
]


class TimelinePage(_Model):
    total_count: int = Field(alias="totalCount")
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: tuple[TimelineNode | None, ...]


class IssueNode(_Model):
    id: str
    number: int
    title: str
    body: str
    created_at: datetime = Field(alias="createdAt")
    updated_at: datetime = Field(alias="updatedAt")
    state: str
    state_reason: str | None = Field(alias="stateReason")
    author: ActorRef | None
    timeline_items: TimelinePage = Field(alias="timelineItems")


class IssuesPage(_Model):
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: tuple[IssueNode | None, ...]


class Blob(_Model):
    text: str | None = None
    is_truncated: bool = Field(default=False, alias="isTruncated")
    is_binary: bool | None = Field(default=None, alias="isBinary")


class WindowRepository(_Model):
    labels_file: Blob | None = Field(default=None, alias="labelsFile")
    learnings_file: Blob | None = Field(default=None, alias="learningsFile")
    config_file: Blob | None = Field(default=None, alias="configFile")
    issues: IssuesPage


class BaseFilesRepository(_Model):
    labels_file: Blob | None = Field(default=None, alias="labelsFile")
    learnings_file: Blob | None = Field(default=None, alias="learningsFile")


class BaseFilesData(_Model):
    """Answer of BaseFiles."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    repository: BaseFilesRepository | None


class WindowData(_Model):
    """Answer of CorrectionWindow."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    repository: WindowRepository | None


class ReactionNode(_Model):
    content: str
    created_at: datetime | None = Field(default=None, alias="createdAt")
    user: ActorRef | None


class ReactionPage(_Model):
    total_count: int = Field(alias="totalCount")
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: tuple[ReactionNode | None, ...]


class CommentReactions(_Model):
    id: str
    reactions: ReactionPage


class PermissionEdge(_Model):
    permission: str
    node: LoginRef


class LoginRef(_Model):
    login: str


class CollaboratorsAnswer(_Model):
    edges: tuple[PermissionEdge | None, ...] | None = None


class TimelineContinuation(_Model):
    number: int
    timeline_items: TimelinePage = Field(alias="timelineItems")


LabeledNode.model_rebuild()
UnlabeledNode.model_rebuild()
PermissionEdge.model_rebuild()
