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

import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn, cast

from assistant.files import UnsafePath
from assistant.suggest import Parser
from assistant.version import VersionAction
from commandline.arguments import HelpFormatter, epilog
from commandline.process import exit_now, start
from commandline.subcommands import add_subcommands
from commandline.usage import FAILED, UsageError, status_of
from corrections.commands import SUMMARIES

if TYPE_CHECKING:  # every module of the table, as the layout test and mypy see them (imported when chosen)
    from commandline.subcommands import Subcommand
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


# Only what builds the parser is imported above. A subcommand's module is imported when it is
# chosen; the top --help lists their summaries from corrections/commands/__init__.py's table and
# imports none. `marker` and a configuration error load no other command's module; what a run
# needs loads in its run.


# The subcommands, corrections/commands/<name>.py, in the order --help lists them (the
# package's table of their summary lines).
SUBCOMMANDS = tuple(SUMMARIES)
if TYPE_CHECKING:  # each module is a Subcommand
    _TABLE: tuple[Subcommand, ...] = (
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


def subcommand(name: str) -> Subcommand:
    """The module of the subcommand `name` (one of SUBCOMMANDS), imported now."""
    return cast("Subcommand", importlib.import_module(f"corrections.commands.{name}"))


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _parser(chosen: str | None = None) -> Parser:
    """The whole parser; with `chosen` (a subcommand's name) that subcommand's alone, the others
    by name only (their modules are not imported); with "" (no subcommand given: the top's
    --help, --version, a mistyped name) each subcommand's name and summary only."""
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
    add_subcommands(parser, SUMMARIES, chosen, subcommand)
    return parser


def entry() -> NoReturn:
    """The `corrections` console script and `python -m corrections`: `main`, then leave at once."""
    start()
    exit_now(main())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `corrections` console script."""
    given = sys.argv[1:] if argv is None else list(argv)
    args = _parser(given[0] if given and given[0] in SUBCOMMANDS else "").parse(given)
    command = subcommand(args.command)
    try:
        return command.run(command.options_from(args))
    except UsageError as error:
        _stderr(f"corrections: error: {error}")
        return status_of(error)
    except UnsafePath as error:
        _stderr(f"corrections: error: {error}")
        return FAILED
