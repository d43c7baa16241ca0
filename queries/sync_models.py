"""Pydantic models of the answers the learnings write path reads, mirroring its .graphql files."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from queries.answer import AnswerModel
from queries.models import ActorRef, Blob, PageInfo, RateLimitInfo, ReactionPage
from queries.pagination import Next


class CommitRef(AnswerModel):
    oid: str


class BranchRef(AnswerModel):
    id: str | None = None
    name: str
    target: CommitRef | None


class RepositoryName(AnswerModel):
    name_with_owner: str = Field(alias="nameWithOwner")


class PullRef(AnswerModel):
    id: str
    number: int
    url: str
    base_ref_name: str = Field(alias="baseRefName")
    is_cross_repository: bool = Field(alias="isCrossRepository")
    head_repository: RepositoryName | None = Field(alias="headRepository")
    author: ActorRef | None
    body: str = ""


class PullNodes(AnswerModel):
    nodes: tuple[PullRef | None, ...] = ()


class TargetRepository(AnswerModel):
    id: str
    url: str
    name_with_owner: str = Field(alias="nameWithOwner")
    default_branch_ref: BranchRef | None = Field(alias="defaultBranchRef")
    sync_ref: BranchRef | None = Field(default=None, alias="syncRef")
    base_file: Blob | None = Field(default=None, alias="baseFile")
    branch_file: Blob | None = Field(default=None, alias="branchFile")
    sync_pulls: PullNodes = Field(default=PullNodes(), alias="syncPulls")
    merged_pulls: PullNodes = Field(default=PullNodes(), alias="mergedPulls")


class TargetData(AnswerModel):
    """Answer of SyncTarget."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    viewer: ActorRef
    repository: TargetRepository | None


class CommentPageInfo(AnswerModel):
    """Where comments read backwards (`last`/`before`, newest first) stand."""

    has_previous_page: bool = Field(alias="hasPreviousPage")
    start_cursor: str | None = Field(alias="startCursor")

    @property
    def next(self) -> Next:
        """The next (older) page: before `startCursor`, when there is one."""
        return Next(more=self.has_previous_page, cursor=self.start_cursor)


class ReactionGroupRef(AnswerModel):
    content: str
    viewer_has_reacted: bool = Field(alias="viewerHasReacted")


class ThreadComment(AnswerModel):
    id: str
    # fullDatabaseId: a BigInt string (real comment ids are above 2^31, past GraphQL's Int).
    database_id: int | None = Field(alias="fullDatabaseId")
    created_at: datetime = Field(alias="createdAt")
    updated_at: datetime = Field(alias="updatedAt")
    last_edited_at: datetime | None = Field(default=None, alias="lastEditedAt")
    body: str
    author: ActorRef | None
    author_association: str | None = Field(default=None, alias="authorAssociation")
    reaction_groups: tuple[ReactionGroupRef, ...] | None = Field(default=(), alias="reactionGroups")

    @property
    def viewer_reactions(self) -> frozenset[str]:
        """The reactions the token's own account gave this comment (GitHub keeps the sync's answers)."""
        return frozenset(group.content for group in self.reaction_groups or () if group.viewer_has_reacted)


class CommentPage(AnswerModel):
    total_count: int = Field(alias="totalCount")
    page_info: CommentPageInfo = Field(alias="pageInfo")
    nodes: tuple[ThreadComment | None, ...]

    @property
    def read(self) -> tuple[ThreadComment, ...]:
        """The comments GitHub answered with (a comment it could not give is null), oldest first."""
        return tuple(comment for comment in self.nodes if comment is not None)


class ReviewNodes(AnswerModel):
    total_count: int = Field(alias="totalCount")
    nodes: tuple[ThreadComment | None, ...]

    @property
    def read(self) -> tuple[ThreadComment, ...]:
        """What GitHub answered with, in its order (a node it could not give is null)."""
        return tuple(node for node in self.nodes if node is not None)


class ReviewThreadNode(AnswerModel):
    comments: ReviewNodes


class ReviewThreads(AnswerModel):
    total_count: int = Field(alias="totalCount")
    nodes: tuple[ReviewThreadNode | None, ...]


class ThreadNode(AnswerModel):
    number: int
    updated_at: datetime = Field(alias="updatedAt")
    comments: CommentPage
    # Pull requests only: the newest reviews (their bodies) and review threads.
    reviews: ReviewNodes | None = None
    review_threads: ReviewThreads | None = Field(default=None, alias="reviewThreads")


class ThreadsPage(AnswerModel):
    total_count: int | None = Field(default=None, alias="totalCount")
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: tuple[ThreadNode | None, ...]


class SourcesRepository(AnswerModel):
    issues: ThreadsPage | None = None
    pull_requests: ThreadsPage | None = Field(default=None, alias="pullRequests")


class SourcesData(AnswerModel):
    """Answer of LearningSources."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    repository: SourcesRepository | None


def _no_selection(value: Any) -> Any:
    """A node the inline fragment `... on IssueComment` selects nothing of (`{}`) is no comment."""
    return None if value == {} else value


class ThreadNumber(AnswerModel):
    number: int


class PendingComment(ThreadComment):
    """A comment read again by id (an IssueComment, a PullRequestReview or a PullRequestReviewComment)
    with the issue or pull request it is on, and for a review thread's reply its first comment."""

    typename: str = Field(alias="__typename")
    issue: ThreadNumber | None = None
    pull_request: ThreadNumber | None = Field(default=None, alias="pullRequest")
    reviewed: ThreadNumber | None = None  # a review's or review comment's pull request
    reply_to: ThreadComment | None = Field(default=None, alias="replyTo")


class PendingData(AnswerModel):
    """Answer of PendingProposals: a comment GitHub no longer has is null."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    pending: tuple[Annotated[PendingComment | None, BeforeValidator(_no_selection)], ...]


class ProposalReactionsNode(AnswerModel):
    id: str
    body: str
    last_edited_at: datetime | None = Field(default=None, alias="lastEditedAt")
    thumbs_up: ReactionPage = Field(alias="thumbsUp")
    thumbs_down: ReactionPage = Field(alias="thumbsDown")


class ProposalReactionsData(AnswerModel):
    """Answer of ProposalReactions: a comment GitHub no longer has is null."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    proposals: tuple[Annotated[ProposalReactionsNode | None, BeforeValidator(_no_selection)], ...]


class PullComments(AnswerModel):
    """A pull request's node id and comments: one page as GitHub answers it, or the pages that
    `fetch_pull_comments` read put together (oldest first, with the page info of the oldest page).
    """

    id: str
    number: int
    comments: CommentPage

    @property
    def older_comments(self) -> bool:
        """Comments older than those read exist."""
        return self.comments.page_info.has_previous_page


class PullCommentsRepository(AnswerModel):
    pull_request: PullComments | None = Field(alias="pullRequest")


class PullCommentsData(AnswerModel):
    """Answer of PullRequestComments."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    repository: PullCommentsRepository | None


class HistoryReviews(ReviewNodes):
    """Reviews read backwards (`last`/`before`), or review threads: one page, oldest first."""

    page_info: CommentPageInfo = Field(alias="pageInfo")


class HistoryThreads(AnswerModel):
    total_count: int = Field(alias="totalCount")
    page_info: CommentPageInfo = Field(alias="pageInfo")
    nodes: tuple[ReviewThreadNode | None, ...]


class HistoryNode(AnswerModel):
    """One page of ThreadHistory: whatever of comments, reviews and threads was asked for."""

    typename: str = Field(alias="__typename")
    comments: CommentPage | None = None
    reviews: HistoryReviews | None = None
    review_threads: HistoryThreads | None = Field(default=None, alias="reviewThreads")


class HistoryRepository(AnswerModel):
    thread: HistoryNode | None = Field(alias="issueOrPullRequest")


class HistoryData(AnswerModel):
    """Answer of ThreadHistory."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    repository: HistoryRepository | None
