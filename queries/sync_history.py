"""A thread's conversation read back to the sync's mark, so that volume hides no command.

The scan (queries.sync_fetch.fetch_threads) reads each issue's and pull request's newest comments,
reviews and review threads only. Behind them, a maintainer's command can be buried: 100 comments
after it, or, in a pull request, a review and 9 replies after a review body holding it (on GitHub
every reply in a review thread is also a bodyless COMMENTED review by its author). `read_back`
pages each such thread back (ThreadHistory, one request a page) until what it reads is older
than the mark, or there is nothing older; review threads it reads whole. A thread the points
budget leaves half-read is returned as `unread`: the caller does not move its mark past it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from queries.answer import parse_answer
from queries.classify import missing_repository
from queries.client import GitHubClient
from queries.documents import operation
from queries.sync_models import CommentPageInfo, HistoryData, HistoryNode, ThreadComment
from queries.sync_threads import Marks, Scan, Thread

# GitHub's largest page; a review thread's comments are read 100 at most (the rest is noted).
HISTORY_PAGE = 100
THREAD_COMMENTS = 100


@dataclass(frozen=True)
class History:
    """The threads with what was read back, those the budget left half-read, and the cost."""

    threads: tuple[Thread, ...]
    unread: tuple[Thread, ...] = ()
    points: int = 0
    pages: int = 0
    notes: tuple[str, ...] = ()


def _older_comments(thread: Thread, since: datetime | None) -> bool:
    """Whether comments older than the scan's and not older than the mark may exist."""
    if not thread.older_comments:
        return False
    oldest = thread.comments[0].created_at if thread.comments else None
    return since is None or oldest is None or oldest >= since


def needs_history(thread: Thread, since: datetime | None) -> bool:
    """Whether the scan left part of the thread since the mark unread."""
    return _older_comments(thread, since) or thread.older_reviews


def _by_id(*groups: Sequence[ThreadComment]) -> tuple[ThreadComment, ...]:
    seen: dict[str, ThreadComment] = {}
    for group in groups:
        for comment in group:
            seen.setdefault(comment.id, comment)
    return tuple(sorted(seen.values(), key=lambda comment: comment.created_at))


@dataclass
class _Cursor:
    """Where one part of a thread's history stands: still to read, and before which cursor."""

    wanted: bool
    before: str | None = None


def _back_to(page: Sequence[ThreadComment], info: CommentPageInfo, since: datetime | None) -> _Cursor:
    """Where a part read backwards goes on: before this page, while GitHub has older items and
    this page's oldest is not older than the mark."""
    oldest = page[0].created_at if page else None
    going = info.has_previous_page and (since is None or oldest is None or oldest >= since)
    return _Cursor(going, info.start_cursor)


@dataclass
class _Reading:
    """One thread read back so far."""

    thread: Thread
    since: datetime | None
    comments: _Cursor
    reviews: _Cursor
    threads: _Cursor
    older: list[ThreadComment] = field(default_factory=list)
    reviews_read: list[ThreadComment] = field(default_factory=list)
    threads_read: list[tuple[ThreadComment, ...]] = field(default_factory=list)
    cut: bool = False  # a review thread held more comments than one page

    @property
    def done(self) -> bool:
        return not (self.comments.wanted or self.reviews.wanted or self.threads.wanted)

    def take(self, node: HistoryNode) -> None:
        """One page's answer: what it read, and where each part goes on (or that it is done)."""
        since = self.since
        if self.comments.wanted and node.comments is not None:
            self.older[:0] = node.comments.read
            self.comments = _back_to(node.comments.read, node.comments.page_info, since)
        if self.reviews.wanted and node.reviews is not None:
            self.reviews_read[:0] = node.reviews.read
            self.reviews = _back_to(node.reviews.read, node.reviews.page_info, since)
        if self.threads.wanted and node.review_threads is not None:
            found = [each.comments for each in node.review_threads.nodes if each is not None]
            self.cut = self.cut or any(each.total_count > len(each.read) for each in found)
            self.threads_read[:0] = [each.read for each in found]
            info = node.review_threads.page_info
            self.threads = _Cursor(info.has_previous_page, info.start_cursor)

    def result(self) -> Thread:
        """The thread with everything read back put in."""
        thread = self.thread
        comments = _by_id(self.older, thread.comments)
        reviews = _by_id(self.reviews_read, thread.reviews) if self.reviews_read else thread.reviews
        threads = tuple(self.threads_read) if self.threads_read else thread.review_threads
        return replace(
            thread,
            comments=comments,
            older_comments=self.comments.wanted,
            reviews=reviews,
            review_threads=threads,
            older_reviews=self.reviews.wanted or self.threads.wanted or self.cut,
        )


async def read_back(
    client: GitHubClient,
    owner: str,
    name: str,
    threads: Sequence[Thread],
    *,
    since: Callable[[Thread], datetime | None],
    points: int,
) -> History:
    """Every thread with its conversation since `since(thread)` read whole, within `points`.

    A page is not sent when the last page's cost would take the reading past `points`; the thread
    it was for, and every thread after it that needed reading back, are `unread`. Raises what
    queries.classify.missing_repository says when the repository cannot be seen (naming a
    missing permission), queries.errors.GitHubError as the client does.
    """
    spent = last = pages = 0
    done: list[Thread] = []
    unread: list[Thread] = []
    notes: list[str] = []
    for thread in threads:
        mark = since(thread)
        if not needs_history(thread, mark) or unread:
            (unread if unread and needs_history(thread, mark) else done).append(thread)
            continue
        is_pull = thread.kind == "pull_request"
        reading = _Reading(
            thread,
            mark,
            comments=_Cursor(_older_comments(thread, mark), thread.comments_before),
            reviews=_Cursor(is_pull and thread.older_reviews),
            threads=_Cursor(is_pull and thread.older_reviews),
        )
        while not reading.done:
            if spent + last > points:
                break
            variables = {
                "owner": owner,
                "name": name,
                "number": thread.number,
                "pageSize": HISTORY_PAGE,
                "threadComments": THREAD_COMMENTS,
                "commentsBefore": reading.comments.before,
                "reviewsBefore": reading.reviews.before,
                "threadsBefore": reading.threads.before,
                "withComments": reading.comments.wanted,
                "withReviews": reading.reviews.wanted,
                "withThreads": reading.threads.wanted,
            }
            before = client.usage.points
            answer = await client.execute(operation("ThreadHistory"), variables)
            last = client.usage.points - before
            spent += last
            pages += 1
            data = parse_answer(HistoryData, answer.data, "ThreadHistory")
            if data.repository is None:
                raise missing_repository(owner, name, answer.errors)
            if data.repository.thread is None:  # gone since the scan: nothing more to read
                reading.comments = reading.reviews = reading.threads = _Cursor(False)
                break
            reading.take(data.repository.thread)
        if not reading.done:  # the budget stopped it
            unread.append(thread)
            continue
        if reading.cut:
            notes.append(
                f"pull request #{thread.number}: a review thread holds more than {THREAD_COMMENTS} "
                "comments; its later ones were not read"
            )
        done.append(reading.result())
    return History(tuple(done), tuple(unread), spent, pages, tuple(notes))


def held_back(marks: Marks, start: Marks, unread: Sequence[Thread]) -> Marks:
    """The scan's new marks, except that a stream with a thread left half-read keeps the mark it
    started from: the next run reads that thread again back to the same mark."""
    if any(thread.kind == "issue" for thread in unread):
        marks = replace(marks, issues=start.issues)
    if any(thread.kind == "pull_request" for thread in unread):
        marks = replace(marks, pulls=start.pulls, pulls_after=start.pulls_after, pulls_top=start.pulls_top)
    return marks


def unread_note(unread: Sequence[Thread]) -> str:
    """What the budget left half-read, in fixed words and numbers."""
    names = ", ".join(f"#{thread.number}" for thread in unread)
    return (
        f"the budget left the older comments or reviews of {len(unread)} issue(s) or pull request(s) "
        f"unread ({names}): their marks stay, and the next run reads them again"
    )


async def read_to_marks(
    client: GitHubClient, repository: tuple[str, str], scan: Scan, start: Marks, *, points: int
) -> Scan:
    """The scan with its threads read back (`read_back`) to the marks it `start`ed from, within
    `points`; its marks held back where a thread was left half-read, and its notes saying so."""
    owner, name = repository
    history = await read_back(
        client,
        owner,
        name,
        scan.threads,
        since=lambda thread: start.issues if thread.kind == "issue" else start.pulls,
        points=points,
    )
    notes = (*scan.notes, *history.notes, *((unread_note(history.unread),) if history.unread else ()))
    marks = held_back(scan.marks, start, history.unread)
    return replace(
        scan, threads=history.threads, marks=marks, notes=notes, points=scan.points + history.points
    )
