"""Running a command's coroutine: `asyncio.run`, without building the text of what it returned.

Since Python 3.11, `asyncio.run` installs a Ctrl+C handler bound to its main task and, when it
ends, asks `signal` for the current handler, which tries the handler as a `signal.Handlers`
value, fails, and formats the failure with the task's repr, and so with the repr of the task's
result: twice (python/cpython#112559, fixed in later releases). For `corrections quality --month`
that result is the month's whole read, whose repr cost about a second of CPU for 800 analyses
(most of the rest of a read's is the same, smaller); nothing ever shows that text. Here the main
task returns None and the result is handed back beside it.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, TypeVar

_T = TypeVar("_T")


def run(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """`asyncio.run(coroutine)`'s result (and exceptions), its text never built."""
    import asyncio  # a command that runs no coroutine (--help, a usage error) does not load it

    box: list[_T] = []

    async def main() -> None:
        box.append(await coroutine)

    asyncio.run(main())
    return box[0]
