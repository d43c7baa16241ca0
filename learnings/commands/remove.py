"""`learnings remove ID`: a learning retired (it stays in the file, marked retired)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from learnings.commands import SUMMARIES
from learnings.commands.local import LocalOptions, add_local_arguments, description

NAME = "remove"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = description(SUMMARY)
EXAMPLES = ("learnings remove l_x7c2",)
TOKEN = False


@dataclass(frozen=True)
class RemoveOptions:
    """Which learning, in which file."""

    local: LocalOptions
    id: str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_local_arguments(parser)
    parser.add_argument("id", metavar="ID", help="the learning's id")


def options_from(args: argparse.Namespace) -> RemoveOptions:
    return RemoveOptions(id=args.id, local=LocalOptions.options_from(args))


def run(options: RemoveOptions) -> int:
    """Retire the learning and print its id; UsageError for an unknown id."""
    from datetime import UTC, datetime

    from commandline.usage import UsageError
    from learnings.commands.local import load_store, store_file

    store = store_file(options.local)
    text, loaded = load_store(store, missing_is_empty=False)
    from learnings.store.edit import EditError, remove
    from learnings.store.file import save

    try:
        learnings, learning = remove(loaded.learnings, options.id, datetime.now(UTC))
    except EditError as error:
        raise UsageError(f"{store.path}: {error}") from error
    if learnings == list(loaded.learnings):
        print(f"learnings: {learning.id} was already retired", file=sys.stderr)
    else:
        save(store, text, learnings)
    print(learning.id)
    return 0
