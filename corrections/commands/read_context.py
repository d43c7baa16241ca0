"""One read end to end: the read (corrections/read/entry.py), then the context folder rendered and written.

The core of `corrections read` and the action's step; the commands only build the options and
print. Warnings go through the caller's `Notices` (a workflow command only
inside GitHub Actions); progress lines through `log`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
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


def _as_of(outcome: ReadOutcome, moment: datetime, wanted: int, log: Say) -> ReadOutcome:
    """The context as of `moment` from the read of the widest window (ReadVariant.as_of): the past
    one (corrections/quality/as_of.py), its window as the configuration sizes it (`wanted`)."""
    from corrections.quality.as_of import context_as_of, describe

    if isinstance(outcome.status, Failed):
        return outcome
    past = context_as_of(outcome, moment, wanted, read_with=WIDEST)
    log(
        f"corrections: the context as of {describe(moment)}: events from then on left out; "
        "permissions, titles, labels.md and learnings as they are now"
    )
    return past


def run_read(
    options: ReadOptions,
    token: str,
    out: Path,
    *,
    paths: Sequence[str] = (),
    log: Say = _stderr,
    say: Notices | None = None,
) -> ReadDone:
    """Read, render and write the context folder `out`; returns what was read and rendered.
    `paths`: the files a change touches (learnings anchored there come first).

    Raises ConfigError when the configuration read at the base ref does not validate, and
    UnsafePath when the folder holds a symbolic link where a file goes (nothing written through it).

    `log` receives progress lines (stderr by default); warnings go through `say`, which decides
    how a warning is shown (a workflow command only inside GitHub Actions).
    """
    started = time.monotonic()
    outcome = event_loop.run(read(options, token, log, load_later=_load_renderers))
    if options.variant.as_of is not None:
        outcome = _as_of(outcome, options.variant.as_of, options.config.context.max_analyzed, log)
    # Loaded beside a request in flight (_load_renderers): the renderers are not needed to start.
    from corrections.render.context import ReadDone, render_context

    files = render_context(outcome, outcome.config, tuple(paths))
    written = {**files.top, **{f"issues/{name}": text for name, text in files.issues.items()}}
    done = write_context(out, written)
    outcome = outcome.with_warnings([*files.warnings, *done.warnings(out)])
    _warn(outcome, say or Notices("corrections"))
    usage = outcome.usage
    log(
        f"corrections: {outcome.repository}: window {counted(len(outcome.window), 'issue')}, "
        f"{len(outcome.corrected)} corrected; {usage.graphql_requests} GraphQL + {usage.rest_requests} REST "
        f"requests ({counted(usage.retries, 'retry', 'retries')}), {counted(usage.points, 'point')}, "
        f"{time.monotonic() - started:.2f} s; "
        + (f"pages shrunk to {outcome.page_sizes.describe()}; " if outcome.page_sizes.shrunk else "")
        + f"wrote {out}/corrections.md"
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
