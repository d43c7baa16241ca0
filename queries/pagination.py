"""The one loop that reads GitHub connections page by page, and its rule: every cursor moves on.

GitHub pages a connection with cursors: `pageInfo { hasNextPage endCursor }` forwards,
`{ hasPreviousPage startCursor }` backwards. A page that says more pages follow but gives no
cursor, or gives back the cursor it was asked with, would be asked again and again (or read
twice): such an answer is a BadResponse, raised before the next request is sent. A cursor that
stands still after the last page wanted does no harm and is not checked.

Several connections may advance in one request (the learnings scan reads issues and pull
requests together); each one stops on its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from queries.errors import BadResponse


@dataclass(frozen=True)
class Next:
    """Where one connection goes after a page: on (with the cursor to ask the next page with) or not."""

    more: bool
    cursor: str | None = None


def advanced(what: str, asked: str | None, following: Next) -> str:
    """The cursor to ask the next page with, for a connection that goes on after the page asked
    with `asked`; BadResponse naming `what` when there is none or it is `asked` again."""
    if following.cursor is None or following.cursor == asked:
        raise BadResponse(f"{what} did not advance")
    return following.cursor


Page = TypeVar("Page")
# Gets the cursor of each connection still going (None before its first page); returns the page
# and where each connection goes next (a connection left out has ended).
Fetch = Callable[[Mapping[str, str | None]], Awaitable[tuple[Page, Mapping[str, Next]]]]


class Pages(Generic[Page]):
    """Pages of one or more connections, one request each, until every one ends or `max_pages`.

    `async for page in Pages(...)`, or `await pages.next()` (None at the end) where the caller must
    tell a failed request from its own work. The caller may stop early; `going` holds the
    connections that have more pages than were read, `count` the requests made.
    """

    def __init__(
        self,
        what: str,
        fetch: Fetch[Page],
        connections: Iterable[str],
        *,
        max_pages: int | None = None,
        start: Mapping[str, str | None] | None = None,
    ) -> None:
        self._what = what
        self._fetch = fetch
        # Each connection from its first page, or from the cursor `start` gives it (a run going on
        # where an earlier one stopped).
        self._cursors: dict[str, str | None] = {name: (start or {}).get(name) for name in connections}
        self._next: dict[str, Next] = {}
        self._max_pages = max_pages
        self.count = 0

    @property
    def going(self) -> frozenset[str]:
        """The connections with pages not read yet."""
        return frozenset(self._cursors)

    def __aiter__(self) -> Pages[Page]:
        return self

    async def __anext__(self) -> Page:
        page = await self.next()
        if page is None:
            raise StopAsyncIteration
        return page

    async def next(self) -> Page | None:
        """The next page, or None when every connection ended or `max_pages` were read.

        Raises BadResponse when a connection said it goes on without moving its cursor, and what
        `fetch` raises.
        """
        if not self._cursors or (self._max_pages is not None and self.count >= self._max_pages):
            return None
        if self.count:
            for name, asked in self._cursors.items():
                self._cursors[name] = advanced(f"{self._what}: the {name} cursor", asked, self._next[name])
        page, following = await self._fetch(dict(self._cursors))
        self.count += 1
        self._next = {name: following[name] for name in self._cursors if name in following}
        self._cursors = {
            name: asked
            for name, asked in self._cursors.items()
            if name in self._next and self._next[name].more
        }
        return page
