"""Relay connections over an ordered sequence: first/last/after/before, as GitHub pages them.

The sequence is the whole connection in order; a cursor names a position in it. A filter
(states, item types, since, content) is applied while walking, so a page of 100 out of
100,000 items costs a walk of about 100 items, not a copy of the whole sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from graphql import GraphQLError, GraphQLResolveInfo

from emulator.ids import cursor, parse_cursor

T = TypeVar("T")


@dataclass(frozen=True)
class Edge:
    """One edge: its cursor and node (plus extra edge fields such as ``permission``)."""

    cursor: str
    node: Any
    permission: str | None = None


class Connection(Generic[T]):
    """A page of a connection, resolved field by field (``totalCount`` counted only when asked)."""

    def __init__(  # noqa: PLR0917
        self,
        edges: list[Edge],
        has_next: bool,
        has_previous: bool,
        total: Callable[[], int],
        filtered: Callable[[], int] | None = None,
        updated_at: str | None = None,
    ) -> None:
        self.edges = edges
        self.nodes = [edge.node for edge in edges]
        self.pageInfo = {
            "hasNextPage": has_next,
            "hasPreviousPage": has_previous,
            "startCursor": edges[0].cursor if edges else None,
            "endCursor": edges[-1].cursor if edges else None,
        }
        self._total = total
        self._filtered = filtered or total
        self.pageCount = len(edges)
        self.updatedAt = updated_at

    def totalCount(self, info: GraphQLResolveInfo[Any], args: dict[str, Any]) -> int:
        """Items in the connection (after its filters, before the cursors)."""
        return self._total()

    def filteredCount(self, info: GraphQLResolveInfo[Any], args: dict[str, Any]) -> int:
        """Items after the filters and the cursors."""
        return self._filtered()

    def issueCount(self, info: GraphQLResolveInfo[Any], args: dict[str, Any]) -> int:
        """Search: how many issues matched."""
        return self._total()

    def viewerHasReacted(self, info: GraphQLResolveInfo[Any], args: dict[str, Any]) -> bool:
        """Never: the viewer has no reactions in an emulated read."""
        return False


def _position(value: str | None, argument: str, positions: Callable[[str], int | None]) -> int | None:
    if value is None:
        return None
    key = parse_cursor(value)
    found = None if key is None else positions(key)
    if found is None:
        raise GraphQLError(
            f"`{value}` does not appear to be a valid cursor.",
            extensions={"type": "INVALID_CURSOR_ARGUMENTS"},
        )
    return found


def paginate(  # noqa: PLR0917
    items: Sequence[T],
    args: dict[str, Any],
    key_of: Callable[[T], str],
    positions: Callable[[str], int | None],
    wrap: Callable[[T], Any],
    keep: Callable[[T], bool] | None = None,
    edge_extra: Callable[[T], dict[str, Any]] | None = None,
    updated_at: str | None = None,
) -> Connection[T]:
    """One page of ``items`` (already in connection order) per first/last/after/before.

    ``key_of`` gives an item's cursor key, ``positions`` turns a key back into an index,
    ``wrap`` makes the GraphQL object of an item, ``keep`` filters.
    """
    match = keep or (lambda _item: True)
    after = _position(args.get("after"), "after", positions)
    before = _position(args.get("before"), "before", positions)
    low = 0 if after is None else after + 1
    high = len(items) if before is None else before
    first, last = args.get("first"), args.get("last")
    chosen: list[int] = []
    if last is not None and first is None:
        index = high - 1
        while index >= low and len(chosen) < last:
            if match(items[index]):
                chosen.append(index)
            index -= 1
        chosen.reverse()
    else:
        limit = first if first is not None else len(items)
        index = low
        while index < high and len(chosen) < limit:
            if match(items[index]):
                chosen.append(index)
            index += 1
        if last is not None:
            chosen = chosen[-last:] if last > 0 else []
    start = chosen[0] if chosen else low
    end = chosen[-1] + 1 if chosen else low
    has_next = any(match(items[i]) for i in range(end, len(items)))
    has_previous = any(match(items[i]) for i in range(start - 1, -1, -1))
    edges = []
    for index in chosen:
        item = items[index]
        extra = edge_extra(item) if edge_extra else {}
        edges.append(Edge(cursor(key_of(item)), wrap(item), **extra))

    def total() -> int:
        return sum(1 for item in items if match(item)) if keep else len(items)

    def filtered() -> int:
        return sum(1 for i in range(low, high) if match(items[i]))

    return Connection(edges, has_next, has_previous, total, filtered, updated_at)
