"""What `corrections init` reads of a repository before it writes anything: the labels with their
descriptions (every page), the token's own account and role, and whether GitHub Actions may open
pull requests there (the weekly sync does).

The labels cost one GraphQL point per 100; the Actions setting is one REST request, sent beside the
first page. Only an admin's token may read that setting: for any other it is unknown, never guessed.
"""

from __future__ import annotations

import asyncio

from queries.answer import parse_answer
from queries.client import GitHubClient
from queries.documents import operation
from queries.errors import GitHubError, NotFound, PermissionDenied
from queries.pagination import advanced
from queries.setup_models import (
    Label,
    LabelsData,
    PullRequestsSetting,
    RepositoryAnswer,
    RepositorySetup,
    WorkflowSettings,
)

# 100 labels a page, at most this many pages: 2,000 labels, more than any repository triages with.
MAX_LABEL_PAGES = 20
WORKFLOW_SETTINGS = "/repos/{owner}/{name}/actions/permissions/workflow"


async def _pull_requests_setting(client: GitHubClient, owner: str, name: str) -> PullRequestsSetting:
    try:
        body = await client.rest_get(WORKFLOW_SETTINGS.format(owner=owner, name=name))
    except (PermissionDenied, NotFound) as error:  # only an admin's token may read it
        return PullRequestsSetting(
            None, f"only an admin's token can read it (GitHub answered {error.status})"
        )
    settings = parse_answer(WorkflowSettings, body, "workflow permissions")
    return PullRequestsSetting(settings.can_approve_pull_request_reviews)


async def _labels_page(
    client: GitHubClient, owner: str, name: str, cursor: str | None
) -> tuple[LabelsData, RepositoryAnswer]:
    answer = await client.execute(
        operation("RepositoryLabels"), {"owner": owner, "name": name, "after": cursor}
    )
    data = parse_answer(LabelsData, answer.data, "RepositoryLabels")
    if data.repository is None:
        raise NotFound(f"repository {owner}/{name} not found or not visible", payload=answer.errors)
    return data, data.repository


async def fetch_setup(client: GitHubClient, owner: str, name: str) -> RepositorySetup:
    """Every label page (in order of name) and the Actions setting; NotFound when the repository
    cannot be seen with this token. Raises only GitHubError."""
    setting = asyncio.ensure_future(_pull_requests_setting(client, owner, name))
    try:
        data, repository = await _labels_page(client, owner, name, None)
        first, page, cursor = data, repository.labels, None
        labels = [Label(n.name, n.description or "") for n in page.nodes if n is not None]
        points = data.rate_limit.cost if data.rate_limit else 1
        for _ in range(MAX_LABEL_PAGES - 1):
            if not page.page_info.has_next_page:
                break
            cursor = advanced("RepositoryLabels labels", cursor, page.page_info.next)
            data, following = await _labels_page(client, owner, name, cursor)
            page = following.labels
            labels += [Label(n.name, n.description or "") for n in page.nodes if n is not None]
            points += data.rate_limit.cost if data.rate_limit else 1
        pull_requests = await setting
    except GitHubError:
        setting.cancel()
        raise
    return RepositorySetup(
        name_with_owner=repository.name_with_owner,
        viewer=first.viewer.login,
        role=repository.viewer_permission,
        labels=tuple(labels),
        total_labels=page.total_count,
        pull_requests=pull_requests,
        points=points,
    )
