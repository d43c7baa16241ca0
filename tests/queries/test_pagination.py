"""The one paging loop: connections end on their own, the page cap holds, and cursors must move."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import pytest

from queries.errors import BadResponse
from queries.pagination import Next, Pages

Asked = list[dict[str, str | None]]


def pages_of(script: list[dict[str, Next]]) -> tuple[Pages[int], Asked]:
    """A Pages whose nth request answers page n with `script[n]` as where each connection goes."""
    asked: Asked = []

    async def fetch(cursors: Mapping[str, str | None]) -> tuple[int, Mapping[str, Next]]:
        asked.append(dict(cursors))
        return len(asked), script[len(asked) - 1]

    return Pages("Test", fetch, ("issues", "pulls"), max_pages=len(script)), asked


async def read_all(pages: Pages[int]) -> list[int]:
    return [page async for page in pages]


def test_each_connection_ends_on_its_own() -> None:
    pages, asked = pages_of(
        [
            {"issues": Next(True, "i1"), "pulls": Next(True, "p1")},
            {"issues": Next(False, "i2"), "pulls": Next(True, "p2")},
            {"pulls": Next(False, None)},
        ]
    )
    assert asyncio.run(read_all(pages)) == [1, 2, 3]
    assert asked == [{"issues": None, "pulls": None}, {"issues": "i1", "pulls": "p1"}, {"pulls": "p2"}]
    assert pages.going == frozenset() and pages.count == 3


def test_the_cap_ends_the_read_and_says_what_goes_on() -> None:
    """After the last page wanted, a cursor that stands still does no harm: it is never sent."""
    pages, asked = pages_of([{"issues": Next(True, "i1"), "pulls": Next(False)}])
    assert asyncio.run(read_all(pages)) == [1]
    assert pages.going == {"issues"} and len(asked) == 1


@pytest.mark.parametrize("cursor", ["i1", None])
def test_a_cursor_that_does_not_move_is_a_bad_response(cursor: str | None) -> None:
    pages, asked = pages_of(
        [
            {"issues": Next(True, "i1"), "pulls": Next(False)},
            {"issues": Next(True, cursor)},
            {"issues": Next(False)},
        ]
    )
    with pytest.raises(BadResponse, match="Test: the issues cursor did not advance"):
        asyncio.run(read_all(pages))
    assert len(asked) == 2, "the same page is not asked again"
