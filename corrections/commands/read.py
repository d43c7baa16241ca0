"""One read end to end: the read (corrections/read/entry.py), then the context folder rendered and written.

The core of `corrections read` and the action's step; the commands only build the options and
print. Warnings go through the caller's `Notices` (a workflow command only
inside GitHub Actions); progress lines through `log`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from commandline import event_loop
from commandline.notices import Notices, counted
from corrections.read.entry import read
from corrections.read.options import WIDEST, ReadOptions
from corrections.read.status import Failed, Off
from corrections.render.output import write_context

if TYPE_CHECKING:
    from corrections.read.outcome import ReadOutcome
    from corrections.render.context import ReadDone


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


Say = Callable[[str], None]


def _load_renderers() -> None:
    """What writes the context folder (jinja2, the renderers, their templates), loaded while the
    read waits on GitHub (corrections/read/entry.py), not after its last answer."""
    from corrections.render.context import load_renderers

    load_renderers()


def _read_as_of(options: ReadOptions, token: str, log: Say) -> ReadOutcome:
    """The context as of `options.as_of`: the read (of the widest window, corrections/read/entry.py),
    then the past one (corrections/quality/as_of.py), its window as the configuration sizes it."""
    wanted = options.config.context.max_analyzed
    outcome = event_loop.run(read(options, token, log, load_later=_load_renderers))
    from corrections.quality.as_of import context_as_of, describe

    assert options.as_of is not None
    if isinstance(outcome.status, Failed):
        return outcome
    past = context_as_of(outcome, options.as_of, wanted, read_with=WIDEST)
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
        outcome = event_loop.run(read(options, token, log, load_later=_load_renderers))
    else:
        outcome = _read_as_of(options, token, log)
    # Loaded beside a request in flight (_load_renderers): the renderers are not needed to start.
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
