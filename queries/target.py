"""The one request of `corrections answer`'s second look: what a duplicate target is now."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from queries.answer import AnswerModel, parse_answer
from queries.client import GitHubClient
from queries.documents import operation


class _TargetRepository(AnswerModel):
    name_with_owner: str = Field(alias="nameWithOwner")


class _Target(AnswerModel):
    typename: str = Field(alias="__typename")
    state: str | None = None
    state_reason: str | None = Field(default=None, alias="stateReason")
    locked: bool = False
    repository: _TargetRepository | None = None


class _Repository(AnswerModel):
    issue_or_pull_request: _Target | None = Field(default=None, alias="issueOrPullRequest")


class _Data(AnswerModel):
    repository: _Repository | None = None


@dataclass(frozen=True)
class Target:
    """What GitHub answered: `kind` "issue", "pull_request" or "missing" (no such number), the
    repository the issue belongs to, its state (OPEN or CLOSED), why it was closed, locked."""

    kind: str
    repository: str = ""
    state: str = "OPEN"
    state_reason: str | None = None
    locked: bool = False


async def fetch_target(client: GitHubClient, owner: str, name: str, number: int) -> Target | None:
    """The issue or pull request `number` of `owner/name`; None when the repository itself is not
    visible (the answer says nothing of the target). Raises GitHubError when GitHub fails."""
    answer = await client.execute(
        operation("DuplicateTarget"), {"owner": owner, "name": name, "number": number}
    )
    data = parse_answer(_Data, answer.data, "DuplicateTarget")
    if data.repository is None:
        return None
    found = data.repository.issue_or_pull_request
    if found is None:  # GitHub answers NOT_FOUND beside a null: no issue or pull request has it
        return Target(kind="missing")
    if found.typename != "Issue":
        return Target(kind="pull_request")
    return Target(
        kind="issue",
        repository=found.repository.name_with_owner if found.repository else f"{owner}/{name}",
        state=found.state or "OPEN",
        state_reason=found.state_reason,
        locked=found.locked,
    )
