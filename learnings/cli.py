"""The `learnings` command: list, show, add, edit, remove, export, import and render the local file.

This module declares the arguments and runs the subcommand; what the local commands do is in
learnings.local_commands. These commands work on a local file only (the default from
`[learnings] file` in the configuration); `sync` and `memory` talk to GitHub, their arguments are
in learnings.github_cli. Only argparse and the arguments load at start: each subcommand imports
what it needs when it runs, so `--help`, `--version` and a usage error answer at once. A usage
error (missing file, bad glob, unknown id, bad configuration) is one line on stderr naming the
file and exits 2; a skipped line of the store is a warning on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from assistant.config import LEARNINGS_PROMPT_CHARS
from assistant.suggest import Parser
from assistant.version import VersionAction
from commandline.arguments import HelpFormatter, epilog
from commandline.process import exit_now
from commandline.usage import UsageError, status_of
from learnings import github_cli


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _local(
    commands: Any, common: argparse.ArgumentParser, name: str, summary: str, *examples: str
) -> argparse.ArgumentParser:
    """A local command: its help in the CLI's style, and --file and --config from `common`."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        parents=[common],
        help=summary,
        description=f"{summary[0].upper()}{summary[1:]}. {_LOCAL}",
        epilog=epilog(*examples, token=False),
        formatter_class=HelpFormatter,
    )
    return parser


_LOCAL = (
    "Works on the local learnings file: --file, else [learnings] file of the configuration "
    "(.github/assistant/learnings.jsonl), in the top folder of the git checkout whatever the current "
    "folder. No token needed."
)


def _common() -> argparse.ArgumentParser:
    """--file and --config: one parent parser that every local command copies them from."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--file",
        help="the learnings file (default: [learnings] file of the configuration, "
        ".github/assistant/learnings.jsonl, in the checkout's top folder)",
    )
    common.add_argument(
        "--config",
        help="the configuration file (default: .github/assistant.toml in the checkout's top folder, when it exists)",
    )
    return common


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
    common = _common()

    listing = _local(commands, common, "list", "every learning, stale ones flagged", "learnings list --json")
    listing.add_argument("--json", action="store_true", help="a JSON array instead of lines")

    showing = _local(commands, common, "show", "one learning, every field", "learnings show l_x7c2")
    showing.add_argument("id", metavar="ID", help="the learning's id (l_ and letters or digits)")
    showing.add_argument("--json", action="store_true", help="the learning as JSON")

    adding = _local(
        commands,
        common,
        "add",
        "add a learning (or update the one with the same text); prints its id",
        "learnings add 'Integration tests need TEST_DB_URL' --paths 'test/**' --issue 142",
    )
    adding.add_argument(
        "text", help="what the assistant should keep in mind (one line, at most 500 characters)"
    )
    adding.add_argument(
        "--paths",
        nargs="+",
        default=[],
        metavar="GLOB",
        help="files it is about, as globs (default: none, a general learning for every path)",
    )
    adding.add_argument("--category", help="the finding category a suppression silences (default: none)")
    adding.add_argument(
        "--kind",
        choices=["note", "suppression"],
        default="note",
        help="a note for the prompt, or a suppression of findings (default: %(default)s)",
    )
    thread = adding.add_mutually_exclusive_group()
    thread.add_argument("--issue", type=int, metavar="N", help="the issue it came from")
    thread.add_argument("--pull-request", type=int, metavar="N", help="the pull request it came from")
    adding.add_argument(
        "--comment", type=int, metavar="ID", help="the comment it came from (its database id)"
    )
    adding.add_argument("--accepted-by", metavar="LOGIN", help="who accepted it")

    editing = _local(
        commands,
        common,
        "edit",
        "change a learning's text or paths in place (same id; only its line of the file changes)",
        "learnings edit l_x7c2 --text 'Integration tests need TEST_DB_URL and Docker' --paths 'test/**'",
    )
    editing.add_argument("id", metavar="ID", help="the learning's id")
    editing.add_argument("--text", help="the new text (default: unchanged)")
    editing.add_argument(
        "--paths",
        nargs="*",
        metavar="GLOB",
        help="the new paths, replacing the old ones; --paths alone makes it general (default: unchanged)",
    )

    removing = _local(
        commands,
        common,
        "remove",
        "retire a learning (it stays in the file, marked retired)",
        "learnings remove l_x7c2",
    )
    removing.add_argument("id", metavar="ID", help="the learning's id")

    _local(
        commands,
        common,
        "export",
        "the learnings as JSONL on stdout",
        "learnings export > learnings-backup.jsonl",
    )

    importing = _local(
        commands,
        common,
        "import",
        "merge another learnings file (the same text is updated, not copied)",
        "learnings import other-repo-learnings.jsonl",
    )
    importing.add_argument("src", metavar="SRC", help="the learnings file to merge in")

    rendering = _local(
        commands,
        common,
        "render",
        "the prompt block for changed paths, as the assistant would read it",
        "learnings render --paths src/api/users.py",
    )
    rendering.add_argument(
        "--paths",
        nargs="+",
        default=[],
        metavar="PATH",
        help="the changed paths that rank learnings (default: none, general learnings only first)",
    )
    rendering.add_argument(
        "--max-entries",
        type=_count,
        metavar="N",
        help="learnings in the block at most (default: [learnings] max_prompt_entries, 20)",
    )
    rendering.add_argument(
        "--max-chars",
        type=_count,
        default=LEARNINGS_PROMPT_CHARS,
        metavar="N",
        help="characters of the block at most (default: %(default)s, as the action writes learnings.md)",
    )

    github_cli.add_parsers(commands)
    return parser


def entry() -> NoReturn:
    """The `learnings` console script and `python -m learnings`: `main`, then leave at once."""
    exit_now(main())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; the exit status (commandline/usage.py): 2 for a usage error, 4 for no token."""
    args = build_parser().parse(argv)
    try:
        if args.command in github_cli.NAMES:
            status = github_cli.run(args)
        else:
            from learnings import local_commands

            status = local_commands.run(args)
    except UsageError as error:
        print(f"learnings: {error}", file=sys.stderr)
        return status_of(error)
    return status


if __name__ == "__main__":
    sys.exit(main())
