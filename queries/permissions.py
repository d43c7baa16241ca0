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

A maintainer's command (`corrections backtest`) asks first for REST's whole collaborator list
(`read_collaborator_list`): one request answers for everyone it lists, where the per-login
look-ups cost one each. A list alone does not prove that a login it does not list has at most
READ: a workflow's GITHUB_TOKEN gets 200 with the directly added collaborators only, no team
grant (actions/runner#2519, pullpreview/action#96, zephyrproject-rtos/zephyr#90352), a list that
looks like any other. It is proof only when it lists the token's own account (`viewer`, a person,
not an app's `[bot]`) with push access: that is a pusher's token, to which GitHub lists every
grant (`CollaboratorList.proven_by`). Otherwise a login absent from it is asked one by one, so a
workflow's token and a pusher's give the same answers. The action never asks the list (it would cost one request every run).
Refused (403, 404) or failed, the per-login path answers as it would have without it, and the
note says nothing of it: a refused list is normal.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from assistant.identity import login_key
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
PUSH_LEVELS = frozenset({"ADMIN", "MAINTAIN", "WRITE"})


# GitHub's REST "List repository collaborators"
# (https://docs.github.com/en/rest/collaborators/collaborators#list-repository-collaborators):
# with affiliation=all, an organization's repository lists its outside collaborators, the members
# that are direct collaborators, the members with access through team memberships (child teams
# included) or through default organization permissions, and the organization's owners; each with
# its `permissions` hash and `role_name`, the highest role of every source of grants. The caller
# must have write, maintain or admin access: else 403. Paged (`Link`), at most 100 a page.
LIST_PAGE_SIZE = 100
MAX_LIST_PAGES = 10  # 1,000 collaborators; past them, the logins not listed are asked one by one


class RoleFlags(AnswerModel):
    """REST's `permissions` hash: what the base role of a person's role allows."""

    admin: bool = False
    maintain: bool = False
    push: bool = False
    triage: bool = False
    pull: bool = False

    def highest(self) -> str | None:
        """The highest base role the hash allows (a custom role's base); None when it allows nothing."""
        ranked = (
            (self.admin, "ADMIN"),
            (self.maintain, "MAINTAIN"),
            (self.push, "WRITE"),
            (self.triage, "TRIAGE"),
            (self.pull, "READ"),
        )
        return next((level for allowed, level in ranked if allowed), None)


class ListedCollaborator(AnswerModel):
    """One person of REST's collaborator list: `role_name` and the hash of its base role."""

    login: str
    role_name: str | None = None
    permissions: RoleFlags = RoleFlags()

    def level(self) -> str | None:
        """The person's level: `role_name`, else the highest of the hash (a custom role's base)."""
        return _level(self.role_name, self.permissions.highest())


class PermissionHolder(AnswerModel):
    """The `user` of REST's per-person answer: the hash of the person's base role."""

    permissions: RoleFlags = RoleFlags()


class RestPermission(AnswerModel):
    """REST's answer for one login: `permission` (admin, write, read, none: maintain reads as
    write, triage as read), `role_name` (the exact role, or a custom role's name) and `user` with
    the `permissions` hash of the role's base (GitHub's REST reference, "Get repository
    permissions for a user": the hash tells the base of a custom role)."""

    permission: str | None = None
    role_name: str | None = None
    user: PermissionHolder | None = None

    def level(self) -> str | None:
        """`role_name` when it is a base role, else the hash's highest, else the legacy `permission`:
        a custom role built on triage (`permission: "read"`, `role_name: "issue-wrangler"`,
        `user.permissions.triage: true`) is TRIAGE, as the list path reads it."""
        base = self.user.permissions.highest() if self.user is not None else None
        return _level(self.role_name, base) or _level(None, self.permission)


def _level(role_name: str | None, base: str | None) -> str | None:
    """A REST role as a GraphQL permission level: `role_name` first, else the base role a custom
    role reports (`base`); None when neither reads as one."""
    for name in (role_name, base):
        level = (name or "").upper()
        if level in PERMISSION_LEVELS:
            return level
    return None


def rest_level(answer: object) -> str | None:
    """GitHub's per-person REST answer as a GraphQL permission level; None when unreadable."""
    try:
        parsed = parse_answer(RestPermission, answer, "REST permission")
    except BadResponse:
        return None
    return parsed.level()


@dataclass(frozen=True)
class CollaboratorList:
    """REST's collaborator list as read: each listed login's level (None: a role that does not
    read as one), and whether every page was read."""

    levels: Mapping[str, str | None]  # lower-cased login -> level
    complete: bool
    # The list counts every grant, so a login it does not list has at most READ (`proven_by`).
    proves_absence: bool = False

    def proven_by(self, viewer: str | None) -> CollaboratorList:
        """The list as proof of absence when it is complete and lists the token's own account, a
        person's (no `[bot]`), with push access: a pusher's token, given every grant."""
        if viewer is None or viewer.strip().lower().endswith("[bot]"):
            return self
        proves = self.complete and self.levels.get(login_key(viewer)) in PUSH_LEVELS
        return CollaboratorList(self.levels, self.complete, proves_absence=proves)

    def answer(self, logins: Iterable[str]) -> tuple[dict[str, str], list[str]]:
        """The levels the list gives (login as asked -> level) and the logins it cannot tell.

        A login listed has its role. Absent, at most READ when the list proves it
        (`proves_absence`), else asked one by one (a workflow's token is given the direct
        collaborators only: the module's docstring says why), as is a role that does not read.
        """
        found: dict[str, str] = {}
        unknown: list[str] = []
        for login in logins:
            key = login_key(login)
            level = self.levels.get(key) if key in self.levels else ("READ" if self.proves_absence else None)
            if level is None:
                unknown.append(login)
            else:
                found[login] = level
        return found, unknown


async def fetch_collaborator_list(
    client: GitHubClient, owner: str, name: str, *, max_pages: int | None = None
) -> CollaboratorList:
    """REST's collaborator list (affiliation all), at most `max_pages` (MAX_LIST_PAGES) pages of
    LIST_PAGE_SIZE.

    Raises GitHubError when the first page is not given: PermissionDenied (403, a token without
    push access), NotFound (404), BadResponse (an answer of another shape), or GitHub's failure.
    A later page that fails ends the list there, as incomplete.
    """
    path = f"/repos/{quote(owner)}/{quote(name)}/collaborators"
    asked: tuple[str, dict[str, str]] | None = (path, {"affiliation": "all", "per_page": str(LIST_PAGE_SIZE)})
    levels: dict[str, str | None] = {}
    for page_number in range(MAX_LIST_PAGES if max_pages is None else max_pages):
        if asked is None:
            return CollaboratorList(levels=levels, complete=True)
        try:
            page = await client.rest_get_page(*asked)
            if not isinstance(page.body, list):
                raise BadResponse(f"REST {path}: not a list")
            people = [parse_answer(ListedCollaborator, item, "collaborator list") for item in page.body]
        except GitHubError:
            if page_number == 0:
                raise
            return CollaboratorList(levels=levels, complete=False)
        levels.update((login_key(person.login), person.level()) for person in people)
        asked = page.next
    return CollaboratorList(levels=levels, complete=asked is None)


async def read_collaborator_list(client: GitHubClient, owner: str, name: str) -> CollaboratorList | None:
    """The collaborator list when GitHub gives it; None when it does not (refused, not found or
    failed): the per-login path then answers as without it, and nothing is noted."""
    try:
        return await fetch_collaborator_list(client, owner, name)
    except GitHubError:
        return None


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
                level = None if limited else rest_level(await client.rest_get(path))
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
    client: GitHubClient, owner: str, name: str, logins: Sequence[str], *, collaborator_list: bool = False
) -> tuple[dict[str, str], list[str]]:
    """Each login's permission on the repository, and the logins whose permission could not be read.

    With `collaborator_list` (a maintainer's command), REST's list first, for every login it
    answers. Then GraphQL (`LOGINS_PER_REQUEST` logins a request), then REST for the logins the
    policy above sends there: those GitHub did not list, and all of a request's logins when GitHub
    refused the list (at most `MAX_REST_LOOKUPS`, a few at a time).
    """
    wanted = list(dict.fromkeys(logins))
    found: dict[str, str] = {}
    listed = await read_collaborator_list(client, owner, name) if collaborator_list and wanted else None
    if listed is not None:
        found, wanted = listed.answer(wanted)
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
