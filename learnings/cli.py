"""The `learnings` command: the top parser and the table of its subcommands, one module each in
learnings/commands/ (list, show, add, edit, remove, export, import and render work on the local
file; sync, propose and memory talk to GitHub).

Each subcommand module declares its arguments (`add_arguments`), turns them into a frozen options
record (`options_from`) and runs on that record (`run`). Only argparse and the arguments load at
start: each `run` imports what it needs, so `--help`, `--version` and a usage error answer at
once. A usage error (missing file, bad glob, unknown id, bad configuration) is one line on stderr
naming the file and exits 2; a skipped line of the store is a warning on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, Protocol

from assistant.suggest import Parser
from assistant.version import VersionAction
from commandline.arguments import HelpFormatter, epilog
from commandline.process import exit_now
from commandline.usage import UsageError, status_of
from learnings.commands import add, edit, export, import_, list_, memory, propose, remove, render, show, sync


class Subcommand(Protocol):
    """What learnings/cli.py reads of a subcommand module."""

    @property
    def NAME(self) -> str: ...
    @property
    def SUMMARY(self) -> str: ...
    @property
    def DESCRIPTION(self) -> str: ...
    @property
    def EXAMPLES(self) -> tuple[str, ...]: ...
    @property
    def TOKEN(self) -> bool: ...  # whether it needs a token: its --help says where one comes from

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def options_from(self, args: argparse.Namespace) -> Any: ...
    def run(self, options: Any) -> int: ...


# In the order `learnings --help` lists them.
SUBCOMMANDS: tuple[Subcommand, ...] = (
    list_,
    show,
    add,
    edit,
    remove,
    export,
    import_,
    render,
    sync,
    propose,
    memory,
)


def build_parser() -> Parser:
    """The argument parser of every subcommand."""
    parser = Parser(
        prog="learnings",
        description="The team's reviewed learnings: a JSONL file in the repository, changed only through "
        "pull requests, rendered into the assistant's prompt.",
        epilog=epilog(
            "learnings add 'Integration tests need TEST_DB_URL' --paths 'test/**'", "learnings list"
        ),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="one of:")
    for command in SUBCOMMANDS:
        command.add_arguments(
            commands.add_parser(
                command.NAME,
                help=command.SUMMARY,
                description=command.DESCRIPTION,
                epilog=epilog(*command.EXAMPLES, token=command.TOKEN),
                formatter_class=HelpFormatter,
            )
        )
    return parser


def entry() -> NoReturn:
    """The `learnings` console script and `python -m learnings`: `main`, then leave at once."""
    exit_now(main())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; the exit status (commandline/usage.py): 2 for a usage error, 4 for no token."""
    args = build_parser().parse(argv)
    command = next(command for command in SUBCOMMANDS if args.command == command.NAME)
    try:
        return command.run(command.options_from(args))
    except UsageError as error:
        print(f"learnings: {error}", file=sys.stderr)
        return status_of(error)


if __name__ == "__main__":
    sys.exit(main())
