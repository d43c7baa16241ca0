"""The round trip of `corrections explain`: one issue and the base branch's labels.md."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from queries.answer import AnswerModel, parse_answer
from queries.classify import missing_repository
from queries.client import GitHubClient
from queries.documents import operation
from queries.models import Blob, IssueNode, RateLimitInfo
from queries.page_sizes import FULL_PAGE


class TrailRepository(AnswerModel):
    labels_file: Blob | None = Field(default=None, alias="labelsFile")
    issue: IssueNode | None = None


class TrailData(AnswerModel):
    """Answer of IssueTrail."""

    rate_limit: RateLimitInfo | None = Field(default=None, alias="rateLimit")
    repository: TrailRepository | None


@dataclass(frozen=True)
class Trail:
    """The issue (None when there is no issue with that number) and labels.md (None when absent)."""

    issue: IssueNode | None
    labels_file: Blob | None


async def fetch_trail(
    client: GitHubClient,
    owner: str,
    name: str,
    number: int,
    labels_expression: str,
    *,
    timeline_size: int = FULL_PAGE,
    shrinkable: bool = False,
) -> Trail:
    """One issue with the first page of its timeline; raises GitHubError (NotFound: no repository).

    `shrinkable`: the caller asks again with a smaller page (queries.page_sizes.ask_smaller).
    """
    variables = {
        "owner": owner,
        "name": name,
        "number": number,
        "labelsExpression": labels_expression,
        "timelinePageSize": timeline_size,
    }
    answer = await client.execute(operation("IssueTrail"), variables, shrinkable=shrinkable)
    data = parse_answer(TrailData, answer.data, "IssueTrail")
    if data.repository is None:
        raise missing_repository(owner, name, answer.errors)
    return Trail(issue=data.repository.issue, labels_file=data.repository.labels_file)
