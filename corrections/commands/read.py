"""`corrections read`: the corrections of a repository into a context folder.

Light at import: the options are built (a configuration error answers) before the reader loads;
the read, the render and the write are corrections/commands/read_context.py's.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from commandline.arguments import (
    RepositoryOptions,
    add_assistant_arguments,
    add_base_ref_argument,
    add_config_argument,
    add_repository_arguments,
    issue_number,
)
from commandline.notices import in_actions
from commandline.token import required_token, token_from
from commandline.usage import DONE, FAILED
from corrections.commands import SUMMARIES
from queries.defaults import DEFAULT_BUDGET, GITHUB_GRAPHQL_URL

if TYPE_CHECKING:
    from corrections.read.options import ReadOptions

NAME = "read"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Read the maintainers' corrections of the assistant's first analyses and write corrections.md, "
    "corrections.json, issues/<n>.md and learnings.md into --out. Files of the folder that this "
    "command did not write are never touched."
)
EXAMPLES = (
    "corrections read --repo octo/demo --out corrections-context",
    "corrections read --repo octo/demo --issue 55   # the corrections nearest issue 55 first",
    "corrections read --repo octo/demo --as-of 2026-10-01   # the context a first analysis then had",
)
TOKEN = True


@dataclass(frozen=True)
class ReadCommandOptions:
    """The read (validated: the configuration read, the repository resolved), where the folder
    goes, and the changed paths that rank learnings."""

    read: ReadOptions
    out: Path = Path("corrections-context")
    paths: tuple[str, ...] = ()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repository_arguments(parser, api_url=GITHUB_GRAPHQL_URL)
    add_read_arguments(parser, out="corrections-context")
    parser.add_argument(
        "--as-of",
        metavar="TIME",
        help="the context a first analysis at TIME (ISO 8601; UTC unless it says) would have had, from "
        "one read of today's timelines: events from TIME on are left out; permissions, titles, "
        "labels.md and learnings are as they are now (default: now)",
    )
    add_assistant_arguments(parser)


def add_read_arguments(parser: argparse.ArgumentParser, *, out: str) -> None:
    """The options of a read that writes a context folder (default `out`)."""
    parser.add_argument(
        "--out",
        default=out,
        metavar="DIR",
        help="folder for the context files (default: %(default)s)",
    )
    add_config_argument(parser)
    parser.add_argument(
        "--max-analyzed",
        type=int,
        metavar="N",
        help="override [context] max_analyzed, 0 to 100 (default: from the configuration, 30; 0 turns reading off)",
    )
    add_base_ref_argument(parser)
    parser.add_argument(
        "--paths", nargs="*", metavar="PATH", help="changed paths that rank learnings (default: none)"
    )
    parser.add_argument(
        "--time-budget",
        type=float,
        metavar="SECONDS",
        help=f"seconds the reading may take, retries included (default: {DEFAULT_BUDGET:g} s)",
    )
    parser.add_argument(
        "--issue",
        type=issue_number,
        metavar="N",
        help="the issue being analysed: the corrections nearest it (title and body) come first "
        "(default: none, newest first)",
    )


def options_from(args: argparse.Namespace) -> ReadCommandOptions:
    """Raises UsageError (a configuration error among them) before anything is read."""
    from corrections.read.analysed import AnalysedIssue
    from corrections.read.options import ReadVariant, command_options, parse_moment

    read = command_options(
        RepositoryOptions.options_from(args),
        max_analyzed=args.max_analyzed,
        time_budget=args.time_budget,
        analysed=None if args.issue is None else AnalysedIssue(number=args.issue),  # issue_number checked it
    )
    if args.as_of is not None:
        read = replace(read, variant=ReadVariant(as_of=parse_moment("--as-of", args.as_of)))
    return ReadCommandOptions(read=read, out=Path(args.out), paths=tuple(args.paths or ()))


def run(options: ReadCommandOptions) -> int:
    """Read, render and write; 1 when GitHub failed (0 inside GitHub Actions: the context says why)."""
    read = options.read
    token = token_from() if read.reading_off else required_token(read.api_url)
    from corrections.commands.read_context import run_read
    from corrections.read.status import Failed

    outcome = run_read(read, token, options.out, paths=options.paths).outcome
    # Inside Actions the analysis goes on without the corrections (the context says why).
    return FAILED if isinstance(outcome.status, Failed) and not in_actions() else DONE
