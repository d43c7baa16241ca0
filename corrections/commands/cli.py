"""The `corrections` command: the top parser, the table of its subcommands, and the errors they share.

Each subcommand is one module of corrections/commands/ (read.py, demo.py, action.py, quality.py,
explain.py, backtest.py, init.py, sync.py, prompt.py, answer.py, marker.py), written one way: NAME,
SUMMARY, DESCRIPTION, EXAMPLES and TOKEN for its --help, `add_arguments(parser)`, a frozen options
record from `options_from(args)` (the only function that sees the parsed arguments) and
`run(options)`. The flags they share are declared once in commandline/arguments.py.

Exit status as gh has it (commandline/usage.py): 0 done, 1 a failure (GitHub failed, not found,
bad credentials), 2 a usage or configuration error, 4 no token; inside GitHub Actions a GitHub
failure of `read` exits 0 (the context says what could not be read).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, Protocol

from assistant.files import UnsafePath
from assistant.suggest import Parser
from assistant.version import VersionAction
from commandline.arguments import HelpFormatter, epilog
from commandline.process import exit_now
from commandline.usage import FAILED, UsageError, status_of
from corrections.commands import (
    action,
    answer,
    backtest,
    demo,
    explain,
    init,
    marker,
    prompt,
    quality,
    read,
    sync,
)

# Only what builds the parser is imported above: each subcommand module is light at import and
# loads what its run needs when it runs (--help, --version and `marker` answer without the reader).


class Subcommand(Protocol):
    """What a module of corrections/commands/ that is a subcommand holds."""

    @property
    def NAME(self) -> str: ...
    @property
    def SUMMARY(self) -> str: ...
    @property
    def DESCRIPTION(self) -> str: ...
    @property
    def EXAMPLES(self) -> tuple[str, ...]: ...
    @property
    def TOKEN(self) -> bool: ...  # whether --help says where the token comes from

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def options_from(self, args: argparse.Namespace) -> Any: ...
    def run(self, options: Any) -> int: ...


# In the order --help lists them.
SUBCOMMANDS: tuple[Subcommand, ...] = (
    read,
    demo,
    action,
    quality,
    explain,
    backtest,
    init,
    sync,
    prompt,
    answer,
    marker,
)


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _parser() -> Parser:
    parser = Parser(
        prog="corrections",
        description="Read maintainers' corrections of the triage assistant from GitHub into prompt "
        "context (read, demo, action), explain them (quality, explain), and serve the analysis "
        "(prompt, marker). Exit status as gh's: 0 done, 1 a failure (GitHub failed, not found, bad "
        "credentials), 2 a usage or configuration error (one line on stderr), 4 no token; inside GitHub "
        "Actions a GitHub failure of `read` exits 0 (the context says what could not be read).",
        epilog=epilog("corrections read --repo octo/demo", "corrections demo"),
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
    """The `corrections` console script and `python -m corrections`: `main`, then leave at once."""
    exit_now(main())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `corrections` console script."""
    args = _parser().parse(argv)
    command = next(command for command in SUBCOMMANDS if args.command == command.NAME)
    try:
        return command.run(command.options_from(args))
    except UsageError as error:
        _stderr(f"corrections: error: {error}")
        return status_of(error)
    except UnsafePath as error:
        _stderr(f"corrections: error: {error}")
        return FAILED
