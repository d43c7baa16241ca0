"""The read round trips of the learnings write path; each sends one request per page, bounded.

`fetch_sync_target` reads where the sync writes (branches, store files, the open pull request);
`fetch_threads` scans issues and pull requests by newest activity for commands and proposals;
`fetch_proposal_reactions` reads who reacted 👍/👎 to proposals; `fetch_pull_comments` reads a pull
request's comments for its PR memory. Whether people may push is read by queries.permissions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from queries.answer import parse_answer
from queries.client import GitHubClient
from queries.documents import operation
from queries.errors import NotFound
from queries.models import Blob, ReactionPage
from queries.pagination import Next, Pages
from queries.sync_models import (
    ProposalReactionsData,
    PullComments,
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
) -> tuple[list[Thread], Next]:
    """The page's threads newer than `since`, and whether the stream goes on after them."""
    if page is None:
        return [], Next(more=False)
    found: list[Thread] = []
    for node in page.nodes:
        if node is None:
            continue
        if since is not None and node.updated_at < since:
            return found, Next(more=False)
        found.append(_thread(node, kind))
    return found, page.page_info.next


def _thread(node: ThreadNode, kind: Literal["issue", "pull_request"]) -> Thread:
    return Thread(
        kind=kind,
        number=node.number,
        updated_at=node.updated_at,
        comments=node.comments.read,
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
    than `since`. Raises BadResponse when a stream's cursor does not advance.
    """

    async def page(cursors: Mapping[str, str | None]) -> tuple[list[Thread], dict[str, Next]]:
        variables = {
            "owner": owner,
            "name": name,
            "pageSize": page_size,
            "commentCount": comment_count,
            "since": since.isoformat().replace("+00:00", "Z") if since is not None else None,
            "issuesAfter": cursors.get("issues"),
            "pullsAfter": cursors.get("pulls"),
            "withIssues": "issues" in cursors,
            "withPulls": "pulls" in cursors,
        }
        answer = await client.execute(operation("LearningSources"), variables)
        data: SourcesData = parse_answer(SourcesData, answer.data, "LearningSources")
        if data.repository is None:
            raise NotFound(f"repository {owner}/{name} not found or not visible", payload=answer.errors)
        found: list[Thread] = []
        following: dict[str, Next] = {}
        streams: tuple[tuple[str, ThreadsPage | None, Literal["issue", "pull_request"]], ...] = (
            ("issues", data.repository.issues, "issue"),
            ("pulls", data.repository.pull_requests, "pull_request"),
        )
        for key, connection, kind in streams:
            if key in cursors:
                threads, following[key] = _threads(connection, kind, since)
                found.extend(threads)
        return found, following

    pages = Pages("LearningSources", page, ("issues", "pulls"), max_pages=max_pages)
    threads = [thread async for found in pages for thread in found]
    return Scan(threads=tuple(threads), complete=not pages.going, pages=pages.count)


@dataclass(frozen=True)
class Reactor:
    """A person (GraphQL type User) who reacted, and when (None when GitHub did not say)."""

    login: str
    at: datetime | None


@dataclass(frozen=True)
class Reactors:
    """The people who reacted 👍 and 👎 to one comment, in reaction order, and the comment's body
    and last edit read in the same request (what the reactions are judged against)."""

    thumbs_up: tuple[Reactor, ...]
    thumbs_down: tuple[Reactor, ...]
    body: str
    edited_at: datetime | None


def _people(page: ReactionPage) -> tuple[Reactor, ...]:
    return tuple(
        Reactor(login=node.user.login, at=node.created_at)
        for node in page.nodes
        if node is not None and node.user is not None and node.user.typename == "User"
    )


async def fetch_proposal_reactions(client: GitHubClient, comment_ids: Sequence[str]) -> dict[str, Reactors]:
    """The 👍 and 👎 reactors of each comment (the first 100 of each), with its body and last edit
    as they are now, 50 comments a request.

    A comment GitHub no longer has is left out of the result.
    """
    found: dict[str, Reactors] = {}
    ids = list(dict.fromkeys(comment_ids))
    for start in range(0, len(ids), NODES_PER_REQUEST):
        chunk = ids[start : start + NODES_PER_REQUEST]
        answer = await client.execute(operation("ProposalReactions"), {"ids": chunk})
        data = parse_answer(ProposalReactionsData, answer.data, "ProposalReactions")
        for node in data.proposals:
            if node is not None:
                found[node.id] = Reactors(
                    thumbs_up=_people(node.thumbs_up),
                    thumbs_down=_people(node.thumbs_down),
                    body=node.body,
                    edited_at=node.last_edited_at,
                )
    return found


async def fetch_pull_comments(
    client: GitHubClient, owner: str, name: str, number: int, *, max_pages: int = 3
) -> PullComments:
    """The newest comments of a pull request, up to `max_pages` pages of 100 (at least one), put
    together oldest first; `older_comments` says whether older ones were left unread.

    Raises NotFound when the repository or the pull request cannot be seen, BadResponse when the
    cursor does not advance.
    """

    async def page(cursors: Mapping[str, str | None]) -> tuple[PullComments, dict[str, Next]]:
        variables = {"owner": owner, "name": name, "number": number, "before": cursors["comments"]}
        answer = await client.execute(operation("PullRequestComments"), variables)
        data: PullCommentsData = parse_answer(PullCommentsData, answer.data, "PullRequestComments")
        pull = data.repository.pull_request if data.repository is not None else None
        if pull is None:
            raise NotFound(f"pull request #{number} of {owner}/{name} not found", payload=answer.errors)
        return pull, {"comments": pull.comments.page_info.next}

    pages = Pages("PullRequestComments", page, ("comments",), max_pages=max(1, max_pages))
    read = [pull async for pull in pages]  # newest page first
    oldest = read[-1]
    nodes = tuple(node for pull in reversed(read) for node in pull.comments.nodes)
    return oldest.model_copy(update={"comments": oldest.comments.model_copy(update={"nodes": nodes})})
