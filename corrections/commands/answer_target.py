"""The one request of `corrections answer`'s second look: the duplicate target's state, or why
GitHub could not say (then the rule leaves the target out: corrections/rules/second_look.py)."""

from __future__ import annotations

import asyncio

from commandline.repository import RepositoryError, parse_repository
from commandline.token import token_from
from corrections.rules.second_look import TargetState
from queries.client import GitHubClient
from queries.errors import GitHubError
from queries.retry import RetryPolicy
from queries.target import fetch_target

# The answer step must not hang on GitHub: a few seconds, then the target counts as unseen.
TARGET_BUDGET = 20.0


def target_state(repository: str | None, number: int, api_url: str) -> tuple[TargetState | None, str | None]:
    """What GitHub says of issue `number` of `repository` ("owner/name"), and, when it says
    nothing, why (one line for a warning); never raises."""
    if not repository:
        return None, "no repository known (--repo, or the context's corrections.json)"
    try:
        repo = parse_repository(repository)
    except RepositoryError as error:
        return None, str(error)
    token = token_from(api_url=api_url)
    if not token:
        return None, "no token (GITHUB_TOKEN or GH_TOKEN) to ask GitHub"

    async def ask() -> TargetState | None:
        policy = RetryPolicy(total_budget=TARGET_BUDGET)
        async with GitHubClient(api_url, token, policy=policy) as client:
            found = await fetch_target(client, repo.owner, repo.name, number)
        if found is None:
            return None
        return TargetState(
            kind=found.kind,
            repository=found.repository,
            open=found.state == "OPEN",
            state_reason=found.state_reason,
            locked=found.locked,
        )

    try:
        state = asyncio.run(ask())
    except GitHubError as error:
        return None, f"GitHub did not say what #{number} is ({type(error).__name__})"
    return state, None if state is not None else f"{repository} cannot be read with this token"
