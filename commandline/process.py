"""Leaving a command's process: flush what it printed, then exit without the interpreter's teardown.

A command that read GitHub holds a few hundred thousand objects (the answers' models, the loaded
modules); freeing them one by one at exit took 0.17 to 0.19 s of every read, after its files were
written and nothing was left to do. `exit_now` is called only by the console scripts and
`python -m`, once the command has returned: every file it wrote is closed, the event loop and its
threads are gone (asyncio.run waits for them), and nothing of the product registers exit handlers.
In-process callers (the tests, the bench) call `main()` and keep their interpreter.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

# What Python itself exits with when flushing standard output fails at exit (a closed pipe).
FLUSH_FAILED = 120


def exit_now(status: int) -> NoReturn:
    """Flush standard output and error, then end the process with `status` at once."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: what was printed is lost
            status = status or FLUSH_FAILED
    os._exit(status)
