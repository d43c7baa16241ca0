"""`commandline.event_loop.run`: asyncio.run's result and exceptions, the result's text never built."""

from __future__ import annotations

import pytest

from commandline.event_loop import run


class _NoText:
    """A result that counts how often its repr was built (a month's read: a second of CPU)."""

    built = 0

    def __repr__(self) -> str:
        _NoText.built += 1
        return "<no text>"


async def _answer() -> _NoText:
    return _NoText()


async def _fail() -> None:
    raise KeyError("the key")


def test_the_result_comes_back_without_its_repr() -> None:
    _NoText.built = 0
    assert isinstance(run(_answer()), _NoText)
    assert _NoText.built == 0


def test_an_exception_comes_back_as_it_was_raised() -> None:
    with pytest.raises(KeyError, match="the key"):
        run(_fail())
