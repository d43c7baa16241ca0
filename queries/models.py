"""Pydantic models of GitHub's answers, mirroring the selections in the .graphql files.

Parsing an answer into these models is the check that it has the shape that was asked for;
a mismatch is a BadResponse, never a crash further down.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from queries.answer import AnswerModel
from queries.pagination import Next


class ActorRef(AnswerModel):
    """An actor as GraphQL gives it: a bot's login has no `[bot]` suffix."""

    typename: str = Field(alias="__typename")
    login: str


class PageInfo(AnswerModel):
    """Where a connection read forwards (`first`/`after`) stands."""

    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: str | None = Field(alias="endCursor")

    @property
    def next(self) -> Next:
        """The next page: after `endCursor`, when there is one."""
        return Next(more=self.has_next_page, cursor=self.end_cursor)


class RateLimitInfo(AnswerModel):
    cost: int
    limit: int
    remaining: int
    reset_at: datetime = Field(alias="resetAt")
    node_count: int = Field(alias="nodeCount")


class NumberRef(AnswerModel):
    number: int | None = None


class CommentNode(AnswerModel):
    typename: Literal["IssueComment"] = Field(alias="__typename")
    id: str
    # databaseId is a 32-bit Int that comment ids have outgrown; fullDatabaseId is a BigInt string.
    database_id: int | None = Field(alias="fullDatabaseId")
    created_at: datetime = Field(alias="createdAt")
    body: str
    author: ActorRef | None
    author_association: str | None = Field(default=None, alias="authorAssociation")
    is_minimized: bool = Field(default=False, alias="isMinimized")
    # GitHub's words: `off-topic`, `outdated`, `resolved`, `duplicate`, `spam`, `abuse`.
    minimized_reason: str | None = Field(default=None, alias="minimizedReason")

    @property
    def hidden(self) -> str | None:
        """Why a maintainer hid the comment, as the classifier's name (OFF_TOPIC, OUTDATED, ...);
        `HIDDEN` when GitHub says it is hidden without a reason; None when shown. The schema's
        spelling (`off-topic`) and the mutation's (`OFF_TOPIC`) read alike."""
        if not self.is_minimized:
            return None
        reason = (self.minimized_reason or "").strip().upper().replace("-", "_").replace(" ", "_")
        return reason or "HIDDEN"


class LabeledNode(AnswerModel):
    typename: Literal["LabeledEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    label: LabelName


class UnlabeledNode(AnswerModel):
    typename: Literal["UnlabeledEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    label: LabelName


class LabelName(AnswerModel):
    name: str


class ClosedNode(AnswerModel):
    typename: Literal["ClosedEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    state_reason: str | None = Field(alias="stateReason")
    duplicate_of: NumberRef | None = Field(default=None, alias="duplicateOf")


class ReopenedNode(AnswerModel):
    typename: Literal["ReopenedEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None


class MarkedNode(AnswerModel):
    typename: Literal["MarkedAsDuplicateEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    canonical: NumberRef | None


class UnmarkedNode(AnswerModel):
    typename: Literal["UnmarkedAsDuplicateEvent"] = Field(alias="__typename")
    created_at: datetime = Field(alias="createdAt")
    actor: ActorRef | None
    canonical: NumberRef | None


TimelineNode = Annotated[
    CommentNode | LabeledNode | UnlabeledNode | ClosedNode | ReopenedNode | MarkedNode | UnmarkedNode,
    Field(discriminator="typename"),
]


class TimelinePage(AnswerModel):
    total_count: int = Field(alias="totalCount")
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: tuple[TimelineNode | None, ...]


class IssueNode(AnswerModel):
    id: str
    number: int
    title: str
    # Not asked by the scan (its 100 issues, of which the window keeps about 30): the window's
    # bodies come with the next round (CorrectionDetails' `bodies`); IssueTrail asks it.
    body: str = ""
    created_at: datetime = Field(alias="createdAt")
    updated_at: datetime = Field(alias="updatedAt")
    state: str
    state_reason: str | None = Field(alias="stateReason")
    author: ActorRef | None
    timeline_items: TimelinePage = Field(alias="timelineItems")


class IssuesPage(AnswerModel):
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: tuple[IssueNode | None, ...]


class Blob(AnswerModel):
    text: str | None = None
    is_truncated: bool = Field(default=False, alias="isTruncated")
    is_binary: bool | None = Field(default=None, alias="isBinary")


class AnalysedText(AnswerModel):
    """The issue being analysed: its text ranks the corrections, nearest first."""

    title: str
    body: str


class WindowRepository(AnswerModel):
    analysed: AnalysedText | None = None
    labels_file: Blob | None = Field(default=None, alias="labelsFile")
    learnings_file: Blob | None = Field(default=None, alias="learningsFile")
    config_file: Blob | None = Field(default=None, alias="configFile")
    issues: IssuesPage


class BaseFilesRepository(AnswerModel):
    labels_file: Blob | None = Field(default=None, alias="labelsFile")
    learnings_file: Blob | None = Field(default=None, alias="learningsFile")


class BaseFilesData(AnswerModel):
    """Answer of BaseFiles."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    repository: BaseFilesRepository | None


class ViewerLogin(AnswerModel):
    login: str


class WindowData(AnswerModel):
    """Answer of CorrectionWindow."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    viewer: ViewerLogin | None = None
    repository: WindowRepository | None


class ReactionNode(AnswerModel):
    content: str
    created_at: datetime | None = Field(default=None, alias="createdAt")
    user: ActorRef | None


class ReactionPage(AnswerModel):
    total_count: int = Field(alias="totalCount")
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: tuple[ReactionNode | None, ...]


class CommentReactions(AnswerModel):
    id: str
    reactions: ReactionPage


class PermissionEdge(AnswerModel):
    permission: str
    node: LoginRef


class LoginRef(AnswerModel):
    login: str


class CollaboratorsAnswer(AnswerModel):
    edges: tuple[PermissionEdge | None, ...] | None = None


class TimelineContinuation(AnswerModel):
    number: int
    timeline_items: TimelinePage = Field(alias="timelineItems")


LabeledNode.model_rebuild()
UnlabeledNode.model_rebuild()
PermissionEdge.model_rebuild()
