"""One read end to end: GitHub's answers through the job, then the context folder rendered and written.

The core of `corrections read`, the action's step and `corrections quality`; the commands only
build the options and print. Warnings go through the caller's `Notices` (a workflow command only
inside GitHub Actions); progress lines through `log`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from assistant.config import ConfigError
from commandline import event_loop
from commandline.notices import Notices, counted
from corrections.read import notes
from corrections.read.options import ReadOptions
from corrections.read.scan_asks import first_ask
from corrections.read.status import Failed, Off
from corrections.render.output import write_context
from queries.retry import RetryPolicy

if TYPE_CHECKING:
    from corrections.read.outcome import ReadOutcome
    from corrections.render.context import ReadDone


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


Say = Callable[[str], None]


def _load_reader() -> None:
    """Import what the job needs besides the HTTP client (pydantic, the models, the rules), and
    what writes the context folder (jinja2, the renderers).

    In a thread while the event loop sends the first request and waits: the loop only runs the
    HTTP client then, whose modules are all loaded (nothing else imports at the same time).
    """
    from corrections.rules.vocabulary import load_parser

    load_parser()  # markdown-it: else imported between the first answer and the second request


async def read_outcome(options: ReadOptions, token: str, log: Say) -> ReadOutcome:
    """Read the window and its corrections; an unexpected error ends as a failed outcome with a note.

    The first request goes out as soon as the HTTP client is loaded; the rest of the reader is
    imported in a thread while GitHub answers it (the request needs nothing of it).
    Raises ConfigError when the configuration read at the base ref does not validate.
    """
    # The network stack (gql, aiohttp, graphql-core: most of the start-up time) is imported only
    # by a command that reads: --help, --version and configuration errors answer without it.
    import asyncio

    from queries.client import GitHubClient
    from queries.window_request import EarlyRequest

    policy = RetryPolicy.for_budget(options.time_budget)
    async with GitHubClient(options.api_url, token, policy=policy) as client:
        first = None if options.reading_off else EarlyRequest.send(client, first_ask(options))
        try:
            if first is not None:
                await first.left()  # else the loading below would hold the request back
            await asyncio.to_thread(_load_reader)
            from corrections.read.round_trips import read_corrections

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
            if first is not None:
                await first.discard()


def _read_as_of(options: ReadOptions, token: str, log: Say) -> ReadOutcome:
    """The context as of `options.as_of`: one read of the widest window today, then the past one
    (corrections/quality/as_of.py), its window as the configuration sizes it."""
    import dataclasses

    from assistant.config import with_values
    from assistant.config_keys import KEYS

    wanted = options.config.context.max_analyzed
    widest = KEYS["context"]["max_analyzed"].high or wanted
    if wanted > 0:
        config = with_values(options.config, "--as-of", "context", {"max_analyzed": widest})
        options = dataclasses.replace(options, config=config, max_analyzed=widest)
    outcome = event_loop.run(read_outcome(options, token, log))
    from corrections.quality.as_of import context_as_of, describe

    assert options.as_of is not None
    if isinstance(outcome.status, Failed):
        return outcome
    past = context_as_of(outcome, options.as_of, wanted, read_with=widest)
    log(
        f"corrections: the context as of {describe(options.as_of)}: events from then on left out; "
        "permissions, titles, labels.md and learnings as they are now"
    )
    return past


def run_read(options: ReadOptions, token: str, *, log: Say = _stderr, say: Notices | None = None) -> ReadDone:
    """Read, render and write the context folder; returns what was read and rendered.

    Raises ConfigError when the configuration read at the base ref does not validate, and
    UnsafePath when the folder holds a symbolic link where a file goes (nothing written through it).

    `log` receives progress lines (stderr by default); warnings go through `say`, which decides
    how a warning is shown (a workflow command only inside GitHub Actions).
    """
    started = time.monotonic()
    if options.as_of is None:
        outcome = event_loop.run(read_outcome(options, token, log))
    else:
        outcome = _read_as_of(options, token, log)
    # Loaded beside the first request (read_outcome): the renderers are not needed to start.
    from corrections.render.context import ReadDone, render_context

    files = render_context(outcome, outcome.config, options.paths)
    written = {**files.top, **{f"issues/{name}": text for name, text in files.issues.items()}}
    done = write_context(options.out, written)
    outcome = outcome.with_warnings([*files.warnings, *done.warnings(options.out)])
    _warn(outcome, say or Notices("corrections"))
    usage = outcome.usage
    log(
        f"corrections: {outcome.repository}: window {counted(len(outcome.window), 'issue')}, "
        f"{len(outcome.corrected)} corrected; {usage.graphql_requests} GraphQL + {usage.rest_requests} REST "
        f"requests ({counted(usage.retries, 'retry', 'retries')}), {counted(usage.points, 'point')}, "
        f"{time.monotonic() - started:.2f} s; "
        + (f"pages shrunk to {outcome.page_sizes.describe()}; " if outcome.page_sizes.shrunk else "")
        + f"wrote {options.out}/corrections.md"
    )
    return ReadDone(outcome, files)


def _warn(outcome: ReadOutcome, notices: Notices) -> None:
    """The status's note first, so that it is one of the annotations GitHub shows (with what to
    check when nothing could be read), then every warning of the read."""
    status = outcome.status
    if isinstance(status, Failed):
        notices.warning(status.warning(actions=notices.actions))
    elif not isinstance(status, Off) and status.note:
        notices.warning(status.note)
    for warning in outcome.warnings:
        notices.warning(warning)
    notices.close()
