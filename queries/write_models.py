"""Pydantic models of the mutations' answers, mirroring their .graphql files.

Each model is the payload under the mutation's field (`createRef`, `addComment`...). A payload that
lacks what its selection asks for (a created ref without its id, say) is a BadResponse: the write
may have happened, but nothing can be built on an answer that does not say what it made.
"""

from __future__ import annotations

from pydantic import Field

from queries.answer import AnswerModel
from queries.sync_models import CommitRef


class WrittenRef(AnswerModel):
    id: str
    target: CommitRef | None = None


class RefPayload(AnswerModel):
    """Payload of createRef and updateRef."""

    ref: WrittenRef


class DeleteRefPayload(AnswerModel):
    client_mutation_id: str | None = Field(default=None, alias="clientMutationId")


class CommitPayload(AnswerModel):
    """Payload of createCommitOnBranch."""

    commit: CommitRef


class WrittenPullRequest(AnswerModel):
    id: str
    number: int
    url: str


class PullRequestPayload(AnswerModel):
    """Payload of createPullRequest and updatePullRequest."""

    pull_request: WrittenPullRequest = Field(alias="pullRequest")


class WrittenComment(AnswerModel):
    id: str
    # fullDatabaseId: a BigInt string (real comment ids are above 2^31, past GraphQL's Int).
    database_id: int | None = Field(default=None, alias="fullDatabaseId")


class CommentEdge(AnswerModel):
    node: WrittenComment


class AddCommentPayload(AnswerModel):
    comment_edge: CommentEdge = Field(alias="commentEdge")


class UpdateIssueCommentPayload(AnswerModel):
    issue_comment: WrittenComment = Field(alias="issueComment")


class AddedReaction(AnswerModel):
    content: str


class AddReactionPayload(AnswerModel):
    reaction: AddedReaction
