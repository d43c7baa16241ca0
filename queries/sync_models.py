"""Pydantic models of the answers the learnings write path reads, mirroring its .graphql files."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from queries.models import ActorRef, Blob, RateLimitInfo, ReactionPage


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="ignore")


class CommitRef(_Model):
    oid: str


class BranchRef(_Model):
    id: str | None = None
    name: str
    target: CommitRef | None


class RepositoryName(_Model):
    name_with_owner: str = Field(alias="nameWithOwner")


class PullRef(_Model):
    id: str
    number: int
    url: str
    base_ref_name: str = Field(alias="baseRefName")
    is_cross_repository: bool = Field(alias="isCrossRepository")
    head_repository: RepositoryName | None = Field(alias="headRepository")
    author: ActorRef | None
    body: str = ""


class PullNodes(_Model):
    nodes: tuple[PullRef | None, ...] = ()


class TargetRepository(_Model):
    id: str
    url: str
    name_with_owner: str = Field(alias="nameWithOwner")
    default_branch_ref: BranchRef | None = Field(alias="defaultBranchRef")
    sync_ref: BranchRef | None = Field(default=None, alias="syncRef")
    base_file: Blob | None = Field(default=None, alias="baseFile")
    branch_file: Blob | None = Field(default=None, alias="branchFile")
    sync_pulls: PullNodes = Field(default=PullNodes(), alias="syncPulls")


class TargetData(_Model):
    """Answer of SyncTarget."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    viewer: ActorRef
    repository: TargetRepository | None


class CommentPageInfo(_Model):
    has_previous_page: bool = Field(alias="hasPreviousPage")
    start_cursor: str | None = Field(alias="startCursor")


class ThreadComment(_Model):
    id: str
    database_id: int | None = Field(alias="databaseId")
    created_at: datetime = Field(alias="createdAt")
    updated_at: datetime = Field(alias="updatedAt")
    last_edited_at: datetime | None = Field(default=None, alias="lastEditedAt")
    body: str
    author: ActorRef | None


class CommentPage(_Model):
    total_count: int = Field(alias="totalCount")
    page_info: CommentPageInfo = Field(alias="pageInfo")
    nodes: tuple[ThreadComment | None, ...]


class ThreadNode(_Model):
    number: int
    updated_at: datetime = Field(alias="updatedAt")
    comments: CommentPage


class ItemsPageInfo(_Model):
    has_next_page: bool = Field(alias="hasNextPage")
    end_cursor: str | None = Field(alias="endCursor")


class ThreadsPage(_Model):
    page_info: ItemsPageInfo = Field(alias="pageInfo")
    nodes: tuple[ThreadNode | None, ...]


class SourcesRepository(_Model):
    issues: ThreadsPage | None = None
    pull_requests: ThreadsPage | None = Field(default=None, alias="pullRequests")


class SourcesData(_Model):
    """Answer of LearningSources."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    repository: SourcesRepository | None


class ProposalReactionsNode(_Model):
    id: str
    thumbs_up: ReactionPage = Field(alias="thumbsUp")
    thumbs_down: ReactionPage = Field(alias="thumbsDown")


class PullComments(_Model):
    id: str
    number: int
    comments: CommentPage


class PullCommentsRepository(_Model):
    pull_request: PullComments | None = Field(alias="pullRequest")


class PullCommentsData(_Model):
    """Answer of PullRequestComments."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    repository: PullCommentsRepository | None
