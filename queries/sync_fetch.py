"""The read round trips of the learnings write path; each sends one request per page, bounded.

`fetch_sync_target` reads where the sync writes (branches, store files, the open pull request);
`fetch_threads` scans issues and pull requests active since the sync's marks for commands and
proposals, within a points allowance;
`fetch_proposal_reactions` reads who reacted 👍/👎 to proposals; `fetch_pull_comments` reads a pull
request's comments for its PR memory. Whether people may push is read by queries.permissions.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from queries.answer import parse_answer
from queries.classify import missing_repository
from queries.client import Answer, GitHubClient
from queries.documents import operation
from queries.errors import NotFound
from queries.models import Blob, ReactionPage
from queries.page_sizes import NodeBatch, SourceSizes, ask_smaller
from queries.pagination import Next, Pages
from queries.sync_history import read_to_marks
from queries.sync_models import (
    PendingComment,
    PendingData,
    ProposalReactionsData,
    PullComments,
    PullCommentsData,
    PullRef,
    SourcesData,
    TargetData,
    ThreadNode,
    ThreadsPage,
)
from queries.sync_threads import Marks, Scan, Thread

# Marks, Scan and Thread live in queries.sync_threads; they are named here too, as before.
__all__ = [
    "Marks",
    "Reactor",
    "Reactors",
    "Scan",
    "SyncTarget",
    "Thread",
    "fetch_pending",
    "fetch_proposal_reactions",
    "fetch_pull_comments",
    "fetch_sync_target",
    "fetch_threads",
]


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
    # number: the sync's own and anyone else's (forks included); learnings.sync.run tells them apart.
    pulls: tuple[PullRef, ...]
    # Merged ones of that name into the default branch, newest first (anyone's, as above).
    merged: tuple[PullRef, ...] = ()


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
        raise missing_repository(owner, name, answer.errors)
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
        merged=tuple(
            pull
            for pull in repository.merged_pulls.nodes
            if pull is not None and pull.base_ref_name == default.name
        ),
    )


def _threads(
    page: ThreadsPage | None, kind: Literal["issue", "pull_request"], since: datetime | None
) -> tuple[list[Thread], Next]:
    """The page's threads not older than `since`, and whether the stream goes on after them."""
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
    reviews = node.reviews.read if node.reviews is not None else ()
    threads = node.review_threads
    read = tuple(t.comments for t in threads.nodes if t is not None) if threads is not None else ()
    older = (node.reviews is not None and node.reviews.total_count > len(reviews)) or (
        threads is not None
        and (threads.total_count > len(read) or any(page.total_count > len(page.read) for page in read))
    )
    return Thread(
        kind=kind,
        number=node.number,
        updated_at=node.updated_at,
        comments=node.comments.read,
        older_comments=node.comments.page_info.has_previous_page,
        comments_before=node.comments.page_info.start_cursor,
        reviews=reviews,
        review_threads=tuple(page.read for page in read),
        older_reviews=older,
    )


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None


@dataclass
class _Progress:
    """How far the scan got: sizes in force, points spent, the newest times read per stream."""

    sizes: SourceSizes
    points: int = 0
    last_cost: int = 0
    issues_through: datetime | None = None
    pulls_newest: datetime | None = None
    issues_total: int | None = None
    issues_read: int = 0
    pulls_cursor: str | None = None


async def fetch_threads(
    client: GitHubClient,
    owner: str,
    name: str,
    *,
    marks: Marks,
    points: int,
    max_pages: int | None = None,
    sizes: SourceSizes | None = None,
    told: Callable[[str], None] | None = None,
    unmarked: Collection[int] = (),
) -> Scan:
    """Issues and pull requests updated since their marks, in requests costing at most `points`.

    Both streams advance in the same request; each stops at its end or its mark. A page is not
    sent when the last page's cost would take the scan past `points` (the first always is).
    Pages shrink while GitHub cannot answer them (queries.page_sizes.ask_smaller). Pull requests
    numbered in `unmarked` (the sync's own: writing to them moves their updatedAt) are read but do
    not move the pull requests' mark. Raises BadResponse when a stream's cursor does not advance.
    """
    state = _Progress(sizes=sizes or SourceSizes())

    async def page(cursors: Mapping[str, str | None]) -> tuple[list[Thread], dict[str, Next]]:
        async def send(sizes: SourceSizes, shrinkable: bool) -> Answer:
            variables = {
                "owner": owner,
                "name": name,
                "pageSize": sizes.threads,
                "commentCount": sizes.comments,
                "reviewCount": sizes.reviews,
                "reviewCommentCount": sizes.review_comments,
                "since": _iso(marks.issues),
                "issuesAfter": cursors.get("issues"),
                "pullsAfter": cursors.get("pulls"),
                "withIssues": "issues" in cursors,
                "withPulls": "pulls" in cursors,
            }
            return await client.execute(operation("LearningSources"), variables, shrinkable=shrinkable)

        before = client.usage.points
        answer, state.sizes = await ask_smaller(state.sizes, send, what="scan page", told=told)
        state.last_cost = client.usage.points - before
        state.points += state.last_cost
        data: SourcesData = parse_answer(SourcesData, answer.data, "LearningSources")
        if data.repository is None:
            raise missing_repository(owner, name, answer.errors)
        found: list[Thread] = []
        following: dict[str, Next] = {}
        issues, pulls = data.repository.issues, data.repository.pull_requests
        if "issues" in cursors:
            threads, following["issues"] = _threads(issues, "issue", None)
            if issues is not None and state.issues_total is None:
                state.issues_total = issues.total_count
            state.issues_read += len(threads)
            if threads:
                state.issues_through = max(thread.updated_at for thread in threads)
            found += threads
        if "pulls" in cursors:
            threads, following["pulls"] = _threads(pulls, "pull_request", marks.pulls)
            marking = [thread for thread in threads if thread.number not in unmarked]
            if marking and state.pulls_newest is None:
                state.pulls_newest = marking[0].updated_at
            state.pulls_cursor = following["pulls"].cursor
            found += threads
        return found, following

    start = {"pulls": marks.pulls_after} if marks.pulls_after else {}
    pages = Pages("LearningSources", page, ("issues", "pulls"), max_pages=max_pages, start=start)
    threads: list[Thread] = []
    while not pages.count or state.points + state.last_cost <= points:
        found = await pages.next()
        if found is None:
            break
        threads += found
    going = pages.going
    issues_mark = marks.issues if state.issues_through is None else state.issues_through
    # Resuming, the stream started below the newest pull requests: their top was read before.
    top = marks.pulls_top if marks.pulls_after else (state.pulls_newest or marks.pulls)
    if "pulls" in going:  # stopped early: the next run goes on from here, down to the old mark
        pulls = replace(marks, pulls_after=state.pulls_cursor or marks.pulls_after, pulls_top=top)
    else:
        pulls = replace(marks, pulls=top or marks.pulls, pulls_after=None, pulls_top=None)
    left = 0
    if "issues" in going and state.issues_total is not None:
        left = max(0, state.issues_total - state.issues_read)
    scan = Scan(
        tuple(threads),
        not going,
        pages.count,
        state.points,
        replace(pulls, issues=issues_mark),
        left,
        "pulls" in going,
        state.sizes,
    )
    # What the pages left of each thread since its mark, read back within the rest of `points`.
    return await read_to_marks(client, (owner, name), scan, marks, points=max(0, points - state.points))


async def fetch_pending(
    client: GitHubClient, comment_ids: Sequence[str], *, told: Callable[[str], None] | None = None
) -> tuple[Thread, ...]:
    """Comments read again by node id, each as a thread of its own (a comment that is gone is left out)."""
    threads: list[Thread] = []
    ids = list(dict.fromkeys(comment_ids))
    batch, start = NodeBatch(), 0
    while start < len(ids):

        async def send(size: NodeBatch, shrinkable: bool, start: int = start) -> tuple[Answer, int]:
            chunk = ids[start : start + size.ids]
            answer = await client.execute(operation("PendingComments"), {"ids": chunk}, shrinkable=shrinkable)
            return answer, len(chunk)

        (answer, count), batch = await ask_smaller(
            batch, send, what="query of comments read again", told=told
        )
        start += count
        for node in parse_answer(PendingData, answer.data, "PendingComments").pending:
            thread = _pending_thread(node) if node is not None else None
            if thread is not None:
                threads.append(thread)
    return tuple(threads)


def _pending_thread(node: PendingComment) -> Thread | None:
    """A comment read by id as a thread of its own, in the place it has there."""
    pull, issue, reviewed = node.pull_request, node.issue, node.reviewed
    if node.typename == "PullRequestReviewComment" and reviewed is not None:
        comments = (node.reply_to, node) if node.reply_to is not None else (node,)
        return Thread("pull_request", reviewed.number, node.updated_at, (), False, review_threads=(comments,))
    if node.typename == "PullRequestReview" and reviewed is not None:
        return Thread("pull_request", reviewed.number, node.updated_at, (), False, reviews=(node,))
    if pull is not None:
        return Thread("pull_request", pull.number, node.updated_at, (node,), False)
    if issue is not None:
        return Thread("issue", issue.number, node.updated_at, (node,), False)
    return None


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


async def fetch_proposal_reactions(
    client: GitHubClient, comment_ids: Sequence[str], *, told: Callable[[str], None] | None = None
) -> dict[str, Reactors]:
    """The 👍 and 👎 reactors of each comment (the first 100 of each), with its body and last edit as they
    are now, 50 comments a request (fewer while GitHub cannot answer that many).

    A comment GitHub no longer has is left out of the result.
    """
    found: dict[str, Reactors] = {}
    ids = list(dict.fromkeys(comment_ids))
    batch = NodeBatch()
    start = 0
    while start < len(ids):

        async def send(size: NodeBatch, shrinkable: bool, start: int = start) -> tuple[Answer, int]:
            chunk = ids[start : start + size.ids]
            answer = await client.execute(
                operation("ProposalReactions"), {"ids": chunk}, shrinkable=shrinkable
            )
            return answer, len(chunk)

        (answer, count), batch = await ask_smaller(batch, send, what="reactions query", told=told)
        start += count
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
