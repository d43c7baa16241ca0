"""The exit status of every command, and the errors that choose one.

One policy for `corrections` and `learnings`, as gh has it
(https://cli.github.com/manual/gh_help_exit-codes): 0 done; 1 a failure (not found, bad
credentials, GitHub unreachable, a refusal); 2 a usage or configuration error; 4 no token (gh's
"authentication required"). Inside GitHub Actions (`corrections action`, `corrections read` with
GITHUB_ACTIONS set) a GitHub failure still exits 0 whenever the analysis can go on: the context
says what could not be read (docs/corrections.md, "Exit status").
"""

from __future__ import annotations

DONE = 0
FAILED = 1
USAGE = 2
NO_TOKEN = 4


class UsageError(Exception):
    """A command that cannot run as asked; the message is one line naming what to fix (status 2)."""


class NoTokenError(UsageError):
    """No token in the environment nor from gh; the message says where one is looked for (status 4)."""


def status_of(error: UsageError) -> int:
    """The exit status of a usage error: NO_TOKEN for a missing token, else USAGE."""
    return NO_TOKEN if isinstance(error, NoTokenError) else USAGE
