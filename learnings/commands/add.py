"""`learnings add TEXT`: a learning into the local file (or the one with the same text updated); prints its id."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from learnings.commands import SUMMARIES
from learnings.commands.local import LocalOptions, add_local_arguments, description

if TYPE_CHECKING:
    from learnings.rules.model import Source

NAME = "add"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = description(SUMMARY)
EXAMPLES = ("learnings add 'Integration tests need TEST_DB_URL' --paths 'test/**' --issue 142",)
TOKEN = False


@dataclass(frozen=True)
class AddOptions:
    """The learning to add, where it came from, and the file."""

    local: LocalOptions
    text: str
    paths: tuple[str, ...] = ()
    category: str | None = None
    kind: Literal["note", "suppression"] = "note"
    issue: int | None = None
    pull_request: int | None = None
    comment: int | None = None
    accepted_by: str | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_local_arguments(parser)
    parser.add_argument(
        "text", help="what the assistant should keep in mind (one line, at most 500 characters)"
    )
    parser.add_argument(
        "--paths",
        nargs="+",
        default=[],
        metavar="GLOB",
        help="files it is about, as globs (default: none, a general learning for every path)",
    )
    parser.add_argument("--category", help="the finding category a suppression silences (default: none)")
    parser.add_argument(
        "--kind",
        choices=["note", "suppression"],
        default="note",
        help="a note for the prompt, or a suppression of findings (default: %(default)s)",
    )
    thread = parser.add_mutually_exclusive_group()
    thread.add_argument("--issue", type=int, metavar="N", help="the issue it came from")
    thread.add_argument("--pull-request", type=int, metavar="N", help="the pull request it came from")
    parser.add_argument(
        "--comment", type=int, metavar="ID", help="the comment it came from (its database id)"
    )
    parser.add_argument("--accepted-by", metavar="LOGIN", help="who accepted it")


def options_from(args: argparse.Namespace) -> AddOptions:
    return AddOptions(
        text=args.text,
        paths=tuple(args.paths),
        category=args.category,
        kind=args.kind,
        issue=args.issue,
        pull_request=args.pull_request,
        comment=args.comment,
        accepted_by=args.accepted_by,
        local=LocalOptions.options_from(args),
    )


def _source(options: AddOptions) -> Source:
    from pydantic import ValidationError

    from assistant.validation import validation_problem
    from commandline.usage import UsageError
    from learnings.rules.model import Source

    try:
        return Source(
            issue=options.issue,
            pull_request=options.pull_request,
            comment=options.comment,
            accepted_by=options.accepted_by,
        )
    except ValidationError as error:
        raise UsageError(f"source: {validation_problem(error)}") from error


def run(options: AddOptions) -> int:
    """Add the learning and print its id (what changed on stderr); UsageError for what cannot be added."""
    from datetime import UTC, datetime

    from commandline.usage import UsageError
    from learnings.commands.local import load_store, store_file
    from learnings.rules.globs import GlobError, check_globs

    try:
        paths = check_globs(options.paths)
    except GlobError as error:
        raise UsageError(f"--paths: {error}") from error
    store = store_file(options.local)  # a configuration error answers before the models load
    source = _source(options)
    text, loaded = load_store(store, missing_is_empty=True)
    from pydantic import ValidationError

    from assistant.validation import validation_problem
    from learnings.store.edit import EditError, add, what_add_did
    from learnings.store.file import save

    known = {learning.id: learning for learning in loaded.learnings}
    try:
        learnings, learning = add(
            loaded.learnings,
            options.text,
            paths,
            options.category,
            datetime.now(UTC),
            kind=options.kind,
            source=source,
        )
    except EditError as error:
        raise UsageError(f"{store.path}: {error}") from error
    except ValidationError as error:
        raise UsageError(f"{store.path}: {validation_problem(error)}") from error
    if learnings != list(loaded.learnings):
        save(store, text, learnings)
    said = what_add_did(known.get(learning.id), learning, paths)
    if said:
        print(f"learnings: {said}", file=sys.stderr)
    print(learning.id)
    return 0
