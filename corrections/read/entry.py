"""The read's one entry: `read(options, token, log) -> ReadOutcome`, for every command that reads
(`corrections read`, the action's step, `quality`, `explain`'s repeats, `backtest`, the sync's
decisions), and `read_trail` for `explain N`'s one issue.

A variant of the read is a typed field of ReadVariant (`widest`, `learnings`, `as_of`, `since`
...), applied by `ReadOptions.resolved` here, once, before the first request: commands never
rewrite the configuration.
The first request goes out as soon as the HTTP client is loaded; the rest of the reader (pydantic,
the models, the rules) is imported in a thread while GitHub answers it, and what the caller needs
only after the read (`load_later`: the renderers) while a later request is in flight.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from assistant.config import ConfigError
from corrections.read import notes
from corrections.read.options import ReadOptions
from corrections.read.scan_asks import first_ask
from corrections.read.status import Failed
from queries.retry import RetryPolicy

if TYPE_CHECKING:
    import asyncio

    from corrections.read.outcome import ReadOutcome
    from corrections.read.trail import TrailOutcome
    from queries.client import GitHubClient

Say = Callable[[str], None]


def _load_reader() -> None:
    """Import what the job needs besides the HTTP client (gql and graphql-core for the later
    requests, pydantic, the models, the rules).

    In a thread while the event loop sends the first request and waits: the loop only runs the
    HTTP client then, whose modules are all loaded (nothing else imports at the same time).
    """
    import corrections.read.round_trips  # noqa: F401  # the import is the point
    import queries.transport  # noqa: F401  # gql and graphql-core, for the requests after the first
    from corrections.rules.vocabulary import load_parser

    load_parser()  # markdown-it: else imported between the first answer and the second request


class _Later:
    """`load` run in a thread once one more request than now has gone out, the loop waiting on
    GitHub then; `settle` waits for it if it started, else drops it (the caller then imports
    what it needs itself, as without it)."""

    def __init__(self, client: GitHubClient, load: Callable[[], None]) -> None:
        import asyncio

        self.started = False
        self._task: asyncio.Task[Any] = asyncio.ensure_future(
            self._run(client, load, client.requests_out + 1)
        )

    async def _run(self, client: GitHubClient, load: Callable[[], None], count: int) -> None:
        import asyncio

        await client.requests_out_reach(count)
        self.started = True
        await asyncio.to_thread(load)

    async def settle(self) -> None:
        import asyncio

        if not self.started:
            self._task.cancel()
        # A failed import is raised again, where it is needed, when the caller imports the module.
        await asyncio.gather(self._task, return_exceptions=True)


async def read(
    options: ReadOptions, token: str, log: Say, *, load_later: Callable[[], None] | None = None
) -> ReadOutcome:
    """Read the window and its corrections; an unexpected error ends as a failed outcome with a note.

    `load_later` imports what the caller needs once the read has returned (the renderers): it
    runs in a thread while the read's second request is in flight, not on the path between an
    answer and the next request; the read returns once it has ended.
    Raises ConfigError when the configuration read at the base ref does not validate.
    """
    # The network stack (aiohttp here, gql and graphql-core beside the first request: most of the
    # start-up time) is imported only by a command that reads: --help, --version and
    # configuration errors answer without it.
    import asyncio

    from commandline.process import pause_collector, resume_collector

    paused = pause_collector()  # until the reader is in: see commandline/process.py
    from queries.client import GitHubClient
    from queries.window_request import EarlyRequest

    options = options.resolved()
    policy = RetryPolicy.for_budget(options.time_budget)
    async with GitHubClient(options.api_url, token, policy=policy) as client:
        first = None if options.reading_off else EarlyRequest.send(client, first_ask(options))
        later: _Later | None = None
        try:
            if first is not None:
                await first.left()  # else the loading below would hold the request back
            await asyncio.to_thread(_load_reader)
            resume_collector(paused)
            from corrections.read.round_trips import read_corrections

            later = None if load_later is None else _Later(client, load_later)
            return await read_corrections(
                client, options, lambda line: log(f"corrections: {line}"), first=first
            )
        except ConfigError:
            raise  # the base branch's configuration: a configuration error, not an internal one
        except Exception:
            import traceback  # only for an internal error

            from corrections.read.outcome import ReadOutcome

            log(traceback.format_exc())
            return ReadOutcome(
                repository=f"{options.owner}/{options.name}",
                status=Failed(notes.INTERNAL, notes.INTERNAL_NOTE),
                config=options.config,
                usage=client.usage,
            )
        finally:
            resume_collector(paused)  # when an error came before the reader was in
            if later is not None:
                await later.settle()
            if first is not None:
                await first.discard()


async def read_trail(options: ReadOptions, number: int, token: str, log: Say) -> TrailOutcome:
    """`corrections explain N`'s read: issue `number` alone, its details and the base branch's
    settings (corrections/read/trail.py). Raises GitHubError when the issue cannot be read."""
    from corrections.read.trail import read_trail as read_one
    from queries.client import GitHubClient

    async with GitHubClient(options.api_url, token, policy=RetryPolicy()) as client:
        return await read_one(
            client, options.resolved(), number, progress=lambda line: log(f"corrections: {line}")
        )
