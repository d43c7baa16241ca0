"""The answers `corrections init` reads (queries/RepositoryLabels.graphql, REST's workflow
permissions) and what it makes of them: plain values the command renders without the network."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from queries.answer import AnswerModel
from queries.models import ActorRef, PageInfo, RateLimitInfo


class LabelAnswer(AnswerModel):
    name: str
    description: str | None = None


class LabelsAnswer(AnswerModel):
    total_count: int = Field(alias="totalCount")
    page_info: PageInfo = Field(alias="pageInfo")
    nodes: list[LabelAnswer | None]


class RepositoryAnswer(AnswerModel):
    name_with_owner: str = Field(alias="nameWithOwner")
    viewer_permission: str | None = Field(alias="viewerPermission")
    labels: LabelsAnswer


class LabelsData(AnswerModel):
    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    viewer: ActorRef
    repository: RepositoryAnswer | None


class WorkflowSettings(AnswerModel):
    can_approve_pull_request_reviews: bool


@dataclass(frozen=True)
class Label:
    """A label of the repository as GitHub has it (its description as the maintainers wrote it)."""

    name: str
    description: str


@dataclass(frozen=True)
class PullRequestsSetting:
    """ "Allow GitHub Actions to create and approve pull requests": True, False, or None with why not known."""

    allowed: bool | None
    unknown_because: str = ""


@dataclass(frozen=True)
class RepositorySetup:
    """The repository as `corrections init` found it."""

    name_with_owner: str
    viewer: str  # the token's own login (an app's with `[bot]`)
    role: str | None  # ADMIN, MAINTAIN, WRITE, TRIAGE or READ; None for an app's token
    labels: tuple[Label, ...]
    total_labels: int  # as GitHub counts them: more than `labels` holds when the pages ran out
    pull_requests: PullRequestsSetting
    points: int  # GraphQL points the label pages cost
