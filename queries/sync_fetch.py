"""The read round trips of the learnings write path; each sends one request per page, bounded.

`fetch_sync_target` reads where the sync writes (branches, store files, the open pull request);
`fetch_threads` scans issues and pull requests by newest activity for commands and proposals;
`fetch_proposal_reactions` reads who reacted 👍/👎 to proposals; `fetch_permissions` reads whether
they may push; `fetch_pull_comments` reads a pull request's comments for its PR memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from queries.answer import parse_answer
from queries.client import GitHubClient
from queries.documents import operation
from queries.errors import BadResponse, GitHubError, NotFound
from queries.fetch import fetch_details, fetch_permissions_rest
from queries.models import Blob, ReactionPage
from queries.requests import DetailsRequest
from queries.sync_models import (
    PullCommentsData,
    PullRef,
    SourcesData,
    TargetData,
    ThreadComment,
    ThreadNode,
    ThreadsPage,
)

THREADS_PAGE_SIZE = 30
COMMENTS_PER_THREAD = 100
NODES_PER_REQUEST = 50


@dataclass(frozen=True)
class SyncTarget:
    """Where the sync writes, as GitHub has it now."""

    repository_id: str
    url: str
    name_with_owner: str
    viewer: str  # the token's own login, as `viewer { login }` answers it (an app's with `[bot]`)
    default_branch: str
    default_head: str
    branch: str
    branch_ref_id: str | None  # None: the sync branch does not exist
    branch_head: str | None
    base_file: Blob | None  # the store on the default branch (None: no file)
    branch_file: Blob | None  # the store on the sync branch
    # Open pull requests to the default branch whose head branch has the sync branch's name, by
    # number: the sync's own and anyone else's (forks included); learnings.sync tells them apart.
    pulls: tuple[PullRef, ...]


async def fetch_sync_target(
    client: GitHubClient, owner: str, name: str, *, branch: str, store_path: str
) -> SyncTarget:
    """The token's account, the repository, both branches' heads and store files, and the open pull
    requests from a branch of the sync branch's name, all in one request.

    Raises NotFound when the repository (or its default branch) cannot be seen.
    """
    variables = {
        "owner": owner,
        "name": name,
        "branchRef": f"refs/heads/{branch}",
        "branchName": branch,
        "baseExpression": f"HEAD:{store_path}",
        "branchExpression": f"refs/heads/{branch}:{store_path}",
    }
    answer = await client.execute(operation("SyncTarget"), variables)
    data: TargetData = parse_answer(TargetData, answer.data, "SyncTarget")
    repository = data.repository
    if repository is None:
        raise NotFound(f"repository {owner}/{name} not found or not visible", payload=answer.errors)
    default = repository.default_branch_ref
    if default is None or default.target is None:
        raise NotFound(f"repository {owner}/{name} has no default branch", payload=answer.errors)
    sync_ref = repository.sync_ref
    pulls = sorted(
        (
            pull
            for pull in repository.sync_pulls.nodes
            if pull is not None and pull.base_ref_name == default.name
        ),
        key=lambda pull: pull.number,
    )
    return SyncTarget(
        repository_id=repository.id,
        url=repository.url,
        name_with_owner=repository.name_with_owner,
        viewer=data.viewer.login,
        default_branch=default.name,
        default_head=default.target.oid,
        branch=branch,
        branch_ref_id=sync_ref.id if sync_ref is not None else None,
        branch_head=sync_ref.target.oid if sync_ref is not None and sync_ref.target else None,
        base_file=repository.base_file,
        branch_file=repository.branch_file if sync_ref is not None else None,
        pulls=tuple(pulls),
    )


@dataclass(frozen=True)
class Thread:
    """An issue or pull request with its newest comments (oldest of them first)."""

    kind: Literal["issue", "pull_request"]
    number: int
    updated_at: datetime
    comments: tuple[ThreadComment, ...]
    older_comments: bool  # comments older than these were not read


@dataclass(frozen=True)
class Scan:
    """What the scan read, and whether it reached `since` (or the end) before its page cap."""

    threads: tuple[Thread, ...]
    complete: bool
    pages: int


def _threads(
    page: ThreadsPage | None, kind: Literal["issue", "pull_request"], since: datetime | None
) -> tuple[list[Thread], bool]:
    """The page's threads newer than `since`, and whether the stream goes on after them."""
    if page is None:
        return [], False
    found: list[Thread] = []
    for node in page.nodes:
        if node is None:
            continue
        if since is not None and node.updated_at < since:
            return found, False
        found.append(_thread(node, kind))
    return found, page.page_info.has_next_page and page.page_info.end_cursor is not None


def _thread(node: ThreadNode, kind: Literal["issue", "pull_request"]) -> Thread:
    comments = tuple(comment for comment in node.comments.nodes if comment is not None)
    return Thread(
        kind=kind,
        number=node.number,
        updated_at=node.updated_at,
        comments=comments,
        older_comments=node.comments.page_info.has_previous_page,
    )


async def fetch_threads(
    client: GitHubClient,
    owner: str,
    name: str,
    *,
    since: datetime | None,
    max_pages: int,
    page_size: int = THREADS_PAGE_SIZE,
    comment_count: int = COMMENTS_PER_THREAD,
) -> Scan:
    """Issues and pull requests updated since `since`, newest first, in at most `max_pages` requests.

    Both streams advance in the same request; each stops at its end or at its first item older
    than `since`.
    """
    threads: list[Thread] = []
    cursors: dict[str, str | None] = {"issues": None, "pulls": None}
    going = {"issues": True, "pulls": True}
    pages = 0
    while (going["issues"] or going["pulls"]) and pages < max_pages:
        variables = {
            "owner": owner,
            "name": name,
            "pageSize": page_size,
            "commentCount": comment_count,
            "since": since.isoformat().replace("+00:00", "Z") if since is not None else None,
            "issuesAfter": cursors["issues"],
            "pullsAfter": cursors["pulls"],
            "withIssues": going["issues"],
            "withPulls": going["pulls"],
        }
        answer = await client.execute(operation("LearningSources"), variables)
        pages += 1
        data: SourcesData = parse_answer(SourcesData, answer.data, "LearningSources")
        if data.repository is None:
            raise NotFound(f"repository {owner}/{name} not found or not visible", payload=answer.errors)
        for key, page, kind in (
            ("issues", data.repository.issues, "issue"),
            ("pulls", data.repository.pull_requests, "pull_request"),
        ):
            if not going[key]:
                continue
            found, more = _threads(page, kind, since)  # type: ignore[arg-type]
            threads.extend(found)
            going[key] = more
            if more and page is not None:
                previous = cursors[key]
                cursors[key] = page.page_info.end_cursor
                if cursors[key] == previous:
                    raise BadResponse(f"LearningSources: the {key} cursor did not advance")
    return Scan(threads=tuple(threads), complete=not (going["issues"] or going["pulls"]), pages=pages)


@dataclass(frozen=True)
class Reactor:
    """A person (GraphQL type User) who reacted, and when (None when GitHub did not say)."""

    login: str
    at: datetime | None


@dataclass(frozen=True)
class Reactors:
    """The people who reacted 👍 and 👎 to one comment, in reaction order."""

    thumbs_up: tuple[Reactor, ...]
    thumbs_down: tuple[Reactor, ...]


def _people(page: ReactionPage) -> tuple[Reactor, ...]:
    return tuple(
        Reactor(login=node.user.login, at=node.created_at)
        for node in page.nodes
        if node is not None and node.user is not None and node.user.typename == "User"
    )


async def fetch_proposal_reactions(client: GitHubClient, comment_ids: Sequence[str]) -> dict[str, Reactors]:
    """The 👍 and 👎 reactors of each comment (the first 100 of each), 50 comments a request.

    A comment GitHub no longer has is left out of the result.
    """
    found: dict[str, Reactors] = {}
    ids = list(dict.fromkeys(comment_ids))
    for start in range(0, len(ids), NODES_PER_REQUEST):
        chunk = ids[start : start + NODES_PER_REQUEST]
        answer = await client.execute(operation("ProposalReactions"), {"ids": chunk})
        nodes = answer.data.get("proposals")
        if not isinstance(nodes, list):
            raise BadResponse("ProposalReactions: answer without its nodes")
        for node in nodes:
            if not isinstance(node, dict) or not node:
                continue
            comment_id = node.get("id")
            up: ReactionPage = parse_answer(ReactionPage, node.get("thumbsUp"), "ProposalReactions")
            down: ReactionPage = parse_answer(ReactionPage, node.get("thumbsDown"), "ProposalReactions")
            if isinstance(comment_id, str):
                found[comment_id] = Reactors(thumbs_up=_people(up), thumbs_down=_people(down))
    return found


@dataclass(frozen=True)
class PullComments:
    """A pull request's node id and the comments read (oldest first), and whether older ones exist."""

    pull_id: str
    comments: tuple[ThreadComment, ...]
    older_comments: bool


async def fetch_pull_comments(
    client: GitHubClient, owner: str, name: str, number: int, *, max_pages: int = 3
) -> PullComments:
    """The newest comments of a pull request, up to `max_pages` pages of 100.

    Raises NotFound when the repository or the pull request cannot be seen.
    """
    comments: list[ThreadComment] = []
    before: str | None = None
    pull_id = ""
    older = False
    for _ in range(max_pages):
        variables = {"owner": owner, "name": name, "number": number, "before": before}
        answer = await client.execute(operation("PullRequestComments"), variables)
        data: PullCommentsData = parse_answer(PullCommentsData, answer.data, "PullRequestComments")
        pull = data.repository.pull_request if data.repository is not None else None
        if pull is None:
            raise NotFound(f"pull request #{number} of {owner}/{name} not found", payload=answer.errors)
        pull_id = pull.id
        comments[:0] = [comment for comment in pull.comments.nodes if comment is not None]
        info = pull.comments.page_info
        older = info.has_previous_page
        if not older or info.start_cursor is None or info.start_cursor == before:
            break
        before = info.start_cursor
    return PullComments(pull_id=pull_id, comments=tuple(comments), older_comments=older)


async def fetch_permissions(
    client: GitHubClient, owner: str, name: str, logins: Sequence[str]
) -> tuple[dict[str, str], list[str]]:
    """Each login's permission on the repository, and the logins whose permission could not be read.

    GraphQL `collaborators(login:)` first (50 logins a request); for the logins it did not list
    (its list leaves out nested teams, so that is not READ), or all of them when GitHub answers
    FORBIDDEN (a token that may not list collaborators) or the request fails, the REST
    permission endpoint, which every token may read (GitHub's REST documentation, "Get repository
    permissions for a user"; at most `MAX_REST_LOOKUPS`, a few at a time).
    """
    wanted = list(dict.fromkeys(logins))
    found: dict[str, str] = {}
    for start in range(0, len(wanted), NODES_PER_REQUEST):
        chunk = tuple(wanted[start : start + NODES_PER_REQUEST])
        try:
            result = await fetch_details(client, owner, name, DetailsRequest(logins=chunk))
        except GitHubError:
            continue
        found.update(result.permissions)
    missing = [login for login in wanted if login not in found]
    if not missing:
        return found, []
    through_rest, unknown = await fetch_permissions_rest(client, owner, name, missing)
    found.update(through_rest)
    return found, unknown
