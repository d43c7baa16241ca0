"""How much one query asks for, and the one rule for asking less after GitHub could not answer.

GitHub stops a query after 10 s ("Something went wrong while executing your query. This may be
the result of a timeout...") or refuses it with RESOURCE_LIMITS_EXCEEDED; a smaller query of the
same shape usually gets through. So every paged read (the reader's scan and details rounds,
`explain`, `quality`, the learnings sync) asks through `ask_smaller`: on such a failure it halves
the read's sizes together, down to their floors, sends again, and hands back the sizes that got
through, which the read keeps for the rest of the run. The sizes themselves are plain values.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, Self, TypeVar

from queries.errors import GitHubError

# GitHub's largest page (first: 100) is what a run asks for while GitHub keeps up.
FULL_PAGE = 100
# The least a page is shrunk to: smaller pages would multiply the requests of a scan; a query
# that fails at this size fails for another reason than its size.
MIN_ISSUES = 10
MIN_TIMELINE_ITEMS = 10
# The learnings sync's scan: issues and pull requests per page, comments per thread.
SOURCES_PAGE = 30
MIN_THREADS = 5
MIN_COMMENTS = 10
# A pull request's newest reviews and review threads, and the first comments of each thread.
REVIEWS = 10
REVIEW_COMMENTS = 10
MIN_REVIEWS = 2
# Comments whose reactions one request reads (nodes(ids:)).
NODES_PER_REQUEST = 50
MIN_NODES = 5


def _half(size: int, floor: int) -> int:
    return max(min(size, floor), size // 2)


class Shrinks(Protocol):
    """The sizes of one kind of query: halved together when GitHub cannot answer them."""

    def halved(self) -> Self | None:
        """Every size halved (each no lower than its floor); None when all are at their floors."""

    def describe(self) -> str:
        """The sizes in words, for logs and summaries."""


@dataclass(frozen=True)
class PageSizes:
    """The reader's sizes: issues per scan page and timeline items per issue page."""

    issues: int = FULL_PAGE
    timeline: int = FULL_PAGE

    def halved(self) -> PageSizes | None:
        """Both sizes halved (each no lower than its floor); None when both are at the floor."""
        smaller = PageSizes(_half(self.issues, MIN_ISSUES), _half(self.timeline, MIN_TIMELINE_ITEMS))
        return None if smaller == self else smaller

    @property
    def can_shrink(self) -> bool:
        """Whether a failure of this size can be met by asking for less."""
        return self.halved() is not None

    @property
    def shrunk(self) -> bool:
        """Smaller than a full page, because GitHub could not answer a bigger query."""
        return self != PageSizes()

    def describe(self) -> str:
        """The sizes in words, for logs and summaries."""
        issues = f"{self.issues} issue" if self.issues == 1 else f"{self.issues} issues"
        return f"{issues} with {self.timeline} timeline items each"


@dataclass(frozen=True)
class SourceSizes:
    """The sync's sizes: issues and pull requests per scan page, newest comments per thread, and a
    pull request's newest reviews and review threads with the first comments of each."""

    threads: int = SOURCES_PAGE
    comments: int = FULL_PAGE
    reviews: int = REVIEWS
    review_comments: int = REVIEW_COMMENTS

    def halved(self) -> SourceSizes | None:
        """Every size halved (each no lower than its floor); None when all are at their floors."""
        smaller = SourceSizes(
            _half(self.threads, MIN_THREADS),
            _half(self.comments, MIN_COMMENTS),
            _half(self.reviews, MIN_REVIEWS),
            _half(self.review_comments, MIN_REVIEWS),
        )
        return None if smaller == self else smaller

    def describe(self) -> str:
        """The sizes in words, for logs and summaries."""
        return (
            f"{self.threads} issues and {self.threads} pull requests with {self.comments} comments each "
            f"({self.reviews} reviews and threads of {self.review_comments} comments a pull request)"
        )


@dataclass(frozen=True)
class NodeBatch:
    """How many nodes one `nodes(ids:)` request asks for, each with its own connections."""

    ids: int = NODES_PER_REQUEST

    def halved(self) -> NodeBatch | None:
        """Half as many ids (no fewer than the floor); None at the floor."""
        smaller = NodeBatch(_half(self.ids, MIN_NODES))
        return None if smaller == self else smaller

    def describe(self) -> str:
        """The size in words, for logs and summaries."""
        return f"{self.ids} comments"


Sizes = TypeVar("Sizes", bound=Shrinks)
Result = TypeVar("Result")
# Sends one query of the given sizes; the flag says whether a failure that asks for less will be
# met with smaller sizes (GitHubClient.execute's `shrinkable`: then it is not sent again as it is).
Send = Callable[[Sizes, bool], Awaitable[Result]]


async def ask_smaller(
    sizes: Sizes,
    send: Send[Sizes, Result],
    *,
    what: str,
    told: Callable[[str], None] | None = None,
    keep: Callable[[Sizes], None] | None = None,
) -> tuple[Result, Sizes]:
    """The answer of `send` at `sizes`, or at the first halved sizes GitHub could answer, and those sizes.

    Raises the failure when it does not ask for less or the sizes are at their floors. `told` hears
    one sentence a shrink, naming `what` was asked; `keep` gets the smaller sizes at each shrink,
    so the run keeps them even when the smallest fail too.
    """
    while True:
        smaller = sizes.halved()
        try:
            return await send(sizes, smaller is not None), sizes
        except GitHubError as error:
            if smaller is None or not error.asks_for_less:
                raise
            if told is not None:
                told(
                    f"GitHub could not answer a {what} of {sizes.describe()} ({error.category}): "
                    f"asking again for {smaller.describe()}, and for no more than that from now on"
                )
            sizes = smaller
            if keep is not None:
                keep(sizes)
