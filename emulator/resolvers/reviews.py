"""A pull request's reviews, review threads and review comments, as GitHub's schema has them.

`PullRequest.reviews` lists the submitted reviews (oldest first; `states` and `author` filter),
`PullRequest.reviewThreads` every thread of every review in the order they were started, and
`PullRequestReviewThread.comments` (and `PullRequestReview.comments`) the review comments, each a
`PullRequestReviewComment` with a database id above 2^31 read through `fullDatabaseId`. A reply
is a comment of a thread after its first one (`replyTo` the first), and, as on GitHub, also a
bodyless COMMENTED review by its author with the reply as its only comment (Maxsky5/openducktor#786:
"a thread reply creates both a bodyless COMMENTED review and a linked PullRequestReviewComment"):
`reviews` lists it in time order, the reply's `pullRequestReview` is it. World keys: a review's
id, a comment's id (a reply's review: the reply's id plus REPLY_REVIEW_IDS), a thread's
`<review id>:<index>`.
"""

from __future__ import annotations

from typing import Any

from emulator.ids import node_id
from emulator.pagination import Connection, paginate
from emulator.resolvers.actors import ActorNode, actor
from emulator.resolvers.context import Args, Info, context
from emulator.resolvers.reactions import Reactable
from emulator.resolvers.registry import NODES
from emulator.store import Store
from emulator.world import Reaction, Review, ReviewComment, ReviewThread, iso

BASE = "https://github.com"
# A reply's own review has the reply's id plus this (review and comment ids are apart on GitHub;
# a world's own ids stay below it).
REPLY_REVIEW_IDS = 100_000_000_000


def _pull(store: Store, number: int) -> Any:
    return NODES.build(store, "PullRequest", str(number))


class _OnPull:
    """What every object of a review knows: its pull request and the repository."""

    _store: Store
    _number: int

    @property
    def pullRequest(self) -> Any:
        """The pull request reviewed."""
        return _pull(self._store, self._number)

    @property
    def repository(self) -> Any:
        """The repository."""
        return NODES.build(self._store, "Repository", self._store.name_with_owner)

    def _on_line(self, thread: ReviewThread) -> None:
        """Where in the diff: the thread's file and line (a single line, on the new side)."""
        self.path = thread.path
        self.line = thread.line
        self.originalLine = thread.line
        self.startLine = None
        self.originalStartLine = None
        self.subjectType = "LINE"


class _Authored(Reactable, _OnPull):
    """What a review and a review comment share: author, body, times, the viewer, reactions."""

    _store: Store
    _author: str | None
    _number: int

    def _times(self, at: Any, updated: Any) -> None:
        self.createdAt = iso(at)
        self.publishedAt = self.createdAt
        self.updatedAt = iso(updated or at)
        self.lastEditedAt = iso(updated) if updated else None
        self.includesCreatedEdit = updated is not None
        self.isMinimized = False
        self.minimizedReason = None
        self.createdViaEmail = False

    @property
    def author(self) -> ActorNode | None:
        """The author; null for a deleted account."""
        return actor(self._store, self._author)

    @property
    def authorAssociation(self) -> str:
        """The author's association with the repository."""
        return self._store.association(self._author)

    def viewerDidAuthor(self, info: Info, args: Args) -> bool:
        """Whether the viewer wrote it."""
        return (self._author or "").lower() == context(info).viewer.lower()

    def viewerCanReact(self, info: Info, args: Args) -> bool:
        """Anyone who can read may react."""
        return True


def _comments(
    store: Store, number: int, review: Review, comments: list[ReviewComment], args: Args
) -> Connection[Any]:
    position = {str(comment.id): k for k, comment in enumerate(comments)}
    return paginate(
        comments,
        args,
        lambda comment: str(comment.id),
        position.get,
        lambda comment: ReviewCommentNode(store, number, review, comment),
    )


@NODES.register("PullRequestReview")
class ReviewNode(_Authored):
    """A submitted review; ``databaseId`` is its world id."""

    typename = "PullRequestReview"

    def __init__(
        self, store: Store, number: int, review: Review, reply: tuple[Review, ReviewComment] | None = None
    ) -> None:
        self._store = store
        self._number = number
        self._review = review
        self._reply = reply  # a reply's own review: the thread's review and the reply
        self._author = review.author
        self._reaction_prefix = f"rv{review.id}"
        self.id = node_id("PullRequestReview", str(review.id))
        self.databaseId = review.id
        self.fullDatabaseId = str(review.id)
        self.body = review.body
        self.bodyText = review.body
        self.state = review.state
        self._times(review.at, review.updated_at)
        self.submittedAt = self.createdAt
        self.authorCanPushToRepository = self._store.permission(review.author or "") in (
            "ADMIN",
            "MAINTAIN",
            "WRITE",
        )
        self.url = f"{BASE}/{store.name_with_owner}/pull/{number}#pullrequestreview-{review.id}"
        self.resourcePath = self.url.removeprefix(BASE)

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> ReviewNode | None:
        """A review by its id, or a reply's review by the reply's id."""
        where = store.review_location(int(key)) if key.isdigit() else None
        if where is None:
            reply_id = int(key) - REPLY_REVIEW_IDS if key.isdigit() else -1
            found = store.review_comment_location(reply_id) if reply_id > 0 else None
            if found is None or found[3] == 0:
                return None
            number, r, t, c = found
            review = store.items[number].reviews[r]
            return reply_review(store, number, review, review.threads[t].comments[c])
        return cls(store, where[0], store.items[where[0]].reviews[where[1]])

    def _reaction_list(self) -> tuple[Reaction, ...]:
        return self._review.reactions

    def comments(self, info: Info, args: Args) -> Connection[Any]:
        """The review's comments, oldest first: the first comment of each thread it started (each
        reply belongs to its own review); a reply's review, the reply alone."""
        if self._reply is not None:
            thread_review, reply = self._reply
            return _comments(self._store, self._number, thread_review, [reply], args)
        found = [thread.comments[0] for thread in self._review.threads]
        return _comments(self._store, self._number, self._review, found, args)


@NODES.register("PullRequestReviewThread")
class ThreadNode(_OnPull):
    """One thread of review comments on a line of a file."""

    typename = "PullRequestReviewThread"

    def __init__(self, store: Store, number: int, review: Review, index: int) -> None:
        self._store = store
        self._number = number
        self._review = review
        self._thread: ReviewThread = review.threads[index]
        self.id = node_id("PullRequestReviewThread", f"{review.id}:{index}")
        self._on_line(self._thread)
        self.diffSide = "RIGHT"
        self.startDiffSide = None
        self.isCollapsed = False
        self.isOutdated = False
        self.isResolved = False
        self.resolvedBy = None
        self.viewerCanReply = True
        self.viewerCanResolve = False
        self.viewerCanUnresolve = False

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> ThreadNode | None:
        """A thread by ``<review id>:<index>``."""
        review_text, _, index_text = key.partition(":")
        where = store.review_location(int(review_text)) if review_text.isdigit() else None
        if where is None or not index_text.isdigit():
            return None
        review = store.items[where[0]].reviews[where[1]]
        index = int(index_text)
        return cls(store, where[0], review, index) if index < len(review.threads) else None

    def comments(self, info: Info, args: Args) -> Connection[Any]:
        """The thread's comments, oldest first: the first starts it, the others reply to it."""
        return _comments(self._store, self._number, self._review, list(self._thread.comments), args)


@NODES.register("PullRequestReviewComment")
class ReviewCommentNode(_Authored):
    """A review comment; ``databaseId`` is its world id (above 2^31: read ``fullDatabaseId``)."""

    typename = "PullRequestReviewComment"

    def __init__(self, store: Store, number: int, review: Review, comment: ReviewComment) -> None:
        self._store = store
        self._number = number
        self._review = review
        self._comment = comment
        self._author = comment.author
        self._reaction_prefix = f"rc{comment.id}"
        self._thread = next(t for t in review.threads if any(c.id == comment.id for c in t.comments))
        self.id = node_id("PullRequestReviewComment", str(comment.id))
        self.databaseId = comment.id
        self.fullDatabaseId = str(comment.id)
        self.body = comment.body
        self.bodyText = comment.body
        self._times(comment.at, comment.updated_at)
        self._on_line(self._thread)
        self.diffHunk = ""
        self.outdated = False
        self.state = "SUBMITTED"
        self.url = f"{BASE}/{store.name_with_owner}/pull/{number}#discussion_r{comment.id}"
        self.resourcePath = self.url.removeprefix(BASE)

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> ReviewCommentNode | None:
        """A review comment by its id."""
        where = store.review_comment_location(int(key)) if key.isdigit() else None
        if where is None:
            return None
        number, r, t, c = where
        review = store.items[number].reviews[r]
        return cls(store, number, review, review.threads[t].comments[c])

    def _reaction_list(self) -> tuple[Reaction, ...]:
        return self._comment.reactions

    @property
    def pullRequestReview(self) -> ReviewNode:
        """The review the comment belongs to: a reply's own review, else the thread's."""
        if self._thread.comments[0].id != self._comment.id:
            return reply_review(self._store, self._number, self._review, self._comment)
        return ReviewNode(self._store, self._number, self._review)

    @property
    def replyTo(self) -> ReviewCommentNode | None:
        """The thread's first comment, for a reply; null for the first."""
        first = self._thread.comments[0]
        if first.id == self._comment.id:
            return None
        return ReviewCommentNode(self._store, self._number, self._review, first)


def reply_review(store: Store, number: int, review: Review, reply: ReviewComment) -> ReviewNode:
    """The bodyless COMMENTED review GitHub makes for a reply in a thread of `review`."""
    own = Review(id=reply.id + REPLY_REVIEW_IDS, author=reply.author, state="COMMENTED", at=reply.at, body="")
    return ReviewNode(store, number, own, reply=(review, reply))


def reviews(store: Store, number: int, args: Args) -> Connection[Any]:
    """`PullRequest.reviews`: oldest first (each reply's own review among them), filtered by
    `states` and `author`."""
    submitted = list(store.items[number].reviews)
    replies = {
        reply.id + REPLY_REVIEW_IDS: (review, reply)
        for review in submitted
        for thread in review.threads
        for reply in thread.comments[1:]
    }
    own = [
        Review(id=key, author=reply.author, state="COMMENTED", at=reply.at, body="")
        for key, (_, reply) in replies.items()
    ]
    found = sorted([*submitted, *own], key=lambda review: review.at)  # stable: a tie keeps its order
    states = args.get("states")
    author = (args.get("author") or "").lower()

    def keep(review: Review) -> bool:
        return (not states or review.state in states) and (
            not author or (review.author or "").lower() == author
        )

    position = {str(review.id): k for k, review in enumerate(found)}
    return paginate(
        found,
        args,
        lambda review: str(review.id),
        position.get,
        lambda review: ReviewNode(store, number, review, replies.get(review.id)),
        keep=keep if states or author else None,
    )


def review_threads(store: Store, number: int) -> list[tuple[Review, int]]:
    """Every thread of a pull request as (review, index), in the order they were started."""
    found = [
        (review, index) for review in store.items[number].reviews for index in range(len(review.threads))
    ]
    return sorted(
        found,
        key=lambda pair: (pair[0].threads[pair[1]].comments[0].at, pair[0].threads[pair[1]].comments[0].id),
    )


def threads(store: Store, number: int, args: Args) -> Connection[Any]:
    """`PullRequest.reviewThreads`: in the order they were started."""
    found = review_threads(store, number)
    position = {f"{review.id}:{index}": k for k, (review, index) in enumerate(found)}
    return paginate(
        found,
        args,
        lambda pair: f"{pair[0].id}:{pair[1]}",
        position.get,
        lambda pair: ThreadNode(store, number, pair[0], pair[1]),
    )
