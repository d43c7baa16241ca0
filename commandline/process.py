"""A command's own process: loading without the cyclic collector, then leaving without teardown.

A command that read GitHub holds a few hundred thousand objects (the answers' models, the loaded
modules); freeing them one by one at exit took 0.17 to 0.19 s of every read, after its files were
written and nothing was left to do. `exit_now` is called only by the console scripts and
`python -m`, once the command has returned: every file it wrote is closed, the event loop and its
threads are gone (asyncio.run waits for them), and nothing of the product registers exit handlers.
In-process callers (the tests, the bench) call `main()` and keep their interpreter.

Loading the read's modules (aiohttp, gql and graphql-core, pydantic, the reader, the renderers)
makes a few hundred thousand objects that live as long as the process. The cyclic collector went
over them again and again while they loaded (187 passes, 41 to 48 ms of a read's 0.48 s of CPU)
and found nothing to free. So in a console script's process (`start`), `pause_collector` stops
it while the modules load and `resume_collector` freezes what they made (`gc.freeze`: never
looked at again) and starts it again for the work itself. In-process callers keep the collector
as they have it: freezing would keep their own garbage for good.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import NoReturn

# What Python itself exits with when flushing standard output fails at exit (a closed pipe).
FLUSH_FAILED = 120


class _ThisProcess:
    """Whether this process is a console script's own (`start` was called)."""

    console_script = False


def start() -> None:
    """Mark this process as a console script's own (its `entry`), before the command runs."""
    _ThisProcess.console_script = True


def pause_collector() -> bool:
    """Stop the cyclic collector while a command's modules load; whether it was stopped (only
    in a console script's process with the collector running), for `resume_collector`."""
    if not _ThisProcess.console_script or not gc.isenabled():
        return False
    gc.disable()
    return True


def resume_collector(paused: bool) -> None:
    """Once the modules are in: what loading made is frozen (never collected, never looked at
    again) and the collector runs again, as it did before `pause_collector`. Once: a second call
    (the read's `finally`, after an error) does nothing."""
    if paused and not gc.isenabled():
        gc.freeze()
        gc.enable()


def exit_now(status: int) -> NoReturn:
    """Flush standard output and error, then end the process with `status` at once."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: what was printed is lost
            status = status or FLUSH_FAILED
    os._exit(status)
