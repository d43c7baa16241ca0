"""What a subcommand module holds, and how a command line lists its subcommands (both command
lines, `corrections` and `learnings`, build their subparsers here, once).

A subcommand's module is imported only when the command line names it: the top --help lists the
summary lines of the package's table (commands/__init__.py) and imports none.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from commandline.arguments import HelpFormatter, epilog


class Subcommand(Protocol):
    """What a module of <package>/commands/ that is a subcommand holds."""

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


def add_subcommands(
    parser: argparse.ArgumentParser,
    summaries: Mapping[str, str],
    chosen: str | None,
    load: Callable[[str], Subcommand],
) -> None:
    """The subparsers of `summaries` (name -> the top --help's line, in its order). With `chosen`
    (a subcommand's name) that one whole (its module loaded by `load`), the others by name only;
    with "" (no subcommand given: the top's --help, --version, a mistyped name) each name and its
    summary line, no module loaded; with None every one whole."""
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="one of:")
    for name, summary in summaries.items():
        if chosen not in {None, "", name}:
            commands.add_parser(name)  # only its name: the command line chose another
            continue
        if chosen == "":
            commands.add_parser(name, help=summary)  # for the top's --help: its line alone
            continue
        command = load(name)
        command.add_arguments(
            commands.add_parser(
                name,
                help=command.SUMMARY,
                description=command.DESCRIPTION,
                epilog=epilog(*command.EXAMPLES, token=command.TOKEN),
                formatter_class=HelpFormatter,
            )
        )
