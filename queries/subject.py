"""The node id of an issue or pull request by its number (SubjectId): what a comment is added to."""

from __future__ import annotations

from queries.answer import AnswerModel, parse_answer
from queries.client import GitHubClient
from queries.documents import operation
from queries.errors import NotFound


class _Subject(AnswerModel):
    id: str


async def fetch_subject_id(client: GitHubClient, owner: str, name: str, number: int) -> str:
    """The node id of issue or pull request `number`; NotFound when the token cannot see it."""
    variables = {"owner": owner, "name": name, "number": number}
    answer = await client.execute(operation("SubjectId"), variables)
    data = answer.data.get("repository")
    subject = data.get("issueOrPullRequest") if isinstance(data, dict) else None
    if not isinstance(subject, dict):
        raise NotFound(f"no issue or pull request #{number} in {owner}/{name}", payload=answer.errors)
    return parse_answer(_Subject, subject, "SubjectId").id
