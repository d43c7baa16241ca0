"""People's permission on a repository: GraphQL's collaborator list first, REST where GitHub says so.

The one policy, for the correction reader and the learnings sync alike:

- GraphQL `collaborators(login:)` is asked first: many logins in one request (`fetch_details`).
- REST `GET /repos/{owner}/{repo}/collaborators/{login}/permission`, one request per login, only
  where GitHub's answer shows that GraphQL cannot tell:
  * GitHub refused the list: FORBIDDEN on the field ("You do not have permission to view
    repository collaborators.", what a workflow's GITHUB_TOKEN is mostly told on github.com); the
    REST endpoint needs only metadata read (GitHub's REST documentation, "Get repository
    permissions for a user"), though a token without push access gets 403 there too (the note
    then says so: corrections.read.notes.permissions_refused);
  * GitHub answered without listing the login: nested teams and other grants are not listed, so
    that is not proof of READ.
- Any other failure of the GraphQL request (network, timeout, 5xx, a rate limit, an answer that
  does not parse: what is left after the retries) leaves the logins unknown. It says nothing
  about what the token may read: REST goes through the same network and the same time budget,
  GitHub counts both APIs together for its secondary limits (concurrent requests and CPU time,
  "Rate limits for the REST API"), and each look-up spends one of the 1,000 REST requests an hour
  a GITHUB_TOKEN has, against a GitHub that is failing. An unknown permission counts for nothing
  (the 👎 or the command is not counted) and the note says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from urllib.parse import quote

from queries import requests
from queries.answer import AnswerModel, parse_answer
from queries.client import GitHubClient
from queries.errors import BadResponse, GitHubError, NotFound, RateLimited
from queries.fetch import fetch_details
from queries.requests import LOOKUPS_CAPPED, DetailsRequest

# Defined beside what the round trips ask (queries/requests.py), which the pure reading imports.
MAX_REST_LOOKUPS = requests.MAX_REST_LOOKUPS
LOGINS_PER_REQUEST = 50  # GraphQL `collaborators(login:)` aliases in one request
REST_CONCURRENCY = 8  # REST permission look-ups in flight at once
PERMISSION_LEVELS = frozenset({"ADMIN", "MAINTAIN", "WRITE", "TRIAGE", "READ", "NONE"})


class RestPermission(AnswerModel):
    """REST's answer for one login: `permission` (admin, write, read, none; maintain and triage
    read as write and read) and `role_name` (the exact role, or a custom role's name)."""

    permission: str | None = None
    role_name: str | None = None


def _rest_level(answer: object) -> str | None:
    """GitHub's REST answer as a GraphQL permission level (role_name first); None when unreadable."""
    try:
        parsed = parse_answer(RestPermission, answer, "REST permission")
    except BadResponse:
        return None
    role = (parsed.role_name or "").upper()
    if role in PERMISSION_LEVELS:
        return role
    legacy = (parsed.permission or "").upper()
    # A custom role reports its base permission in `permission` (admin, write, read, none).
    return legacy if legacy in PERMISSION_LEVELS else None


async def fetch_permissions_rest(
    client: GitHubClient,
    owner: str,
    name: str,
    logins: Sequence[str],
    *,
    concurrency: int = REST_CONCURRENCY,
    cap: int = MAX_REST_LOOKUPS,
    failures: set[str] | None = None,
) -> tuple[dict[str, str], list[str]]:
    """Permissions through REST (needs only metadata read), at most `concurrency` at a time.

    At most `cap` logins are looked up (one request each); the rest count as not read. A login
    that does not exist (404) has no permission (NONE). Returns the levels found and the logins
    whose permission could not be read; why goes into `failures`: the categories of GitHub's
    failures, an answer that does not parse, and `LOOKUPS_CAPPED` when the cap left some unasked.
    After a primary rate limit the rest is not asked.
    """
    gate = asyncio.Semaphore(concurrency)
    found: dict[str, str] = {}
    unknown: list[str] = list(logins[cap:])
    if unknown and failures is not None:
        failures.add(LOOKUPS_CAPPED)
    logins = logins[:cap]
    limited: list[RateLimited] = []

    async def one(login: str) -> None:
        path = f"/repos/{quote(owner)}/{quote(name)}/collaborators/{quote(login)}/permission"
        why: str | None = None
        async with gate:
            try:
                level = None if limited else _rest_level(await client.rest_get(path))
                if level is None and not limited:
                    why = BadResponse.category  # answered, but not as a permission reads
            except NotFound:
                level = "NONE"
            except GitHubError as error:
                level = None
                if isinstance(error, RateLimited):
                    limited.append(error)
                why = error.category
        if why is not None and failures is not None:
            failures.add(why)
        if level is None:
            unknown.append(login)
        else:
            found[login] = level

    await asyncio.gather(*(one(login) for login in logins))
    return found, sorted(unknown)


async def fetch_permissions(
    client: GitHubClient, owner: str, name: str, logins: Sequence[str]
) -> tuple[dict[str, str], list[str]]:
    """Each login's permission on the repository, and the logins whose permission could not be read.

    GraphQL first (`LOGINS_PER_REQUEST` logins a request), then REST for the logins the policy
    above sends there: those GitHub did not list, and all of a request's logins when GitHub
    refused the list (at most `MAX_REST_LOOKUPS`, a few at a time).
    """
    wanted = list(dict.fromkeys(logins))
    found: dict[str, str] = {}
    unknown: list[str] = []
    through_rest: list[str] = []
    for start in range(0, len(wanted), LOGINS_PER_REQUEST):
        chunk = tuple(wanted[start : start + LOGINS_PER_REQUEST])
        try:
            result = await fetch_details(client, owner, name, DetailsRequest(logins=chunk))
        except GitHubError:
            unknown.extend(chunk)
            continue
        found.update(result.permissions)
        through_rest.extend(result.unlisted)
        unanswered = [
            login for login in chunk if login not in result.permissions and login not in result.unlisted
        ]
        (through_rest if result.permissions_forbidden else unknown).extend(unanswered)
    if through_rest:
        from_rest, unread = await fetch_permissions_rest(client, owner, name, through_rest)
        found.update(from_rest)
        unknown.extend(unread)
    return found, sorted(unknown)
