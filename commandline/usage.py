"""The one usage error of every command: bad arguments, inputs or configuration.

Its message is the one line the command prints before it exits with status 2.
"""

from __future__ import annotations


class UsageError(Exception):
    """A command that cannot run as asked; the message is one line naming what to fix."""
