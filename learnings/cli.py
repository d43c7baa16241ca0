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

import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn, cast

from assistant.suggest import Parser
from assistant.version import VersionAction
from commandline.arguments import HelpFormatter, epilog
from commandline.process import exit_now, start
from commandline.subcommands import add_subcommands
from commandline.usage import UsageError, status_of
from learnings.commands import SUMMARIES

if TYPE_CHECKING:  # every module of the table, as the layout test and mypy see them (imported when chosen)
    from commandline.subcommands import Subcommand
    from learnings.commands import (
        add,
        edit,
        export,
        import_,
        list_,
        memory,
        propose,
        remove,
        render,
        show,
        sync,
    )


# Only what builds the parser is imported above. A subcommand's module is imported when it is
# chosen; the top --help lists their summaries from learnings/commands/__init__.py's table and
# imports none. A local command loads no GitHub command's module; what a run needs loads in its run.


# The subcommands, name -> learnings/commands/<module>.py (a trailing _ where the name is Python's:
# `list`, `import`), in the order --help lists them (the order of the summaries' table, tested).
SUBCOMMANDS = {
    "list": "list_",
    "show": "show",
    "add": "add",
    "edit": "edit",
    "remove": "remove",
    "export": "export",
    "import": "import_",
    "render": "render",
    "sync": "sync",
    "propose": "propose",
    "memory": "memory",
}
if TYPE_CHECKING:  # each module is a Subcommand
    _TABLE: tuple[Subcommand, ...] = (
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


def subcommand(name: str) -> Subcommand:
    """The module of the subcommand `name` (a key of SUBCOMMANDS), imported now."""
    return cast("Subcommand", importlib.import_module(f"learnings.commands.{SUBCOMMANDS[name]}"))


def build_parser(chosen: str | None = None) -> Parser:
    """The whole parser; with `chosen` (a subcommand's name) that subcommand's alone, the others
    by name only (their modules are not imported); with "" (no subcommand given: the top's
    --help, --version, a mistyped name) each subcommand's name and summary only."""
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
    add_subcommands(parser, SUMMARIES, chosen, subcommand)
    return parser


def entry() -> NoReturn:
    """The `learnings` console script and `python -m learnings`: `main`, then leave at once."""
    start()
    exit_now(main())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; the exit status (commandline/usage.py): 2 for a usage error, 4 for no token."""
    given = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(given[0] if given and given[0] in SUBCOMMANDS else "").parse(given)
    command = subcommand(args.command)
    try:
        return command.run(command.options_from(args))
    except UsageError as error:
        print(f"learnings: {error}", file=sys.stderr)
        return status_of(error)


if __name__ == "__main__":
    sys.exit(main())
