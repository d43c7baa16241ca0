"""`learnings edit ID`: a learning's text or paths changed in place (same id; only its line of the file changes)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from learnings.commands import SUMMARIES
from learnings.commands.local import LocalOptions, add_local_arguments, description

NAME = "edit"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = description(SUMMARY)
EXAMPLES = ("learnings edit l_x7c2 --text 'Integration tests need TEST_DB_URL and Docker' --paths 'test/**'",)
TOKEN = False


@dataclass(frozen=True)
class EditOptions:
    """Which learning, its new text and paths (None: unchanged; no paths: general), and the file."""

    local: LocalOptions
    id: str
    text: str | None = None
    paths: tuple[str, ...] | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_local_arguments(parser)
    parser.add_argument("id", metavar="ID", help="the learning's id")
    parser.add_argument("--text", help="the new text (default: unchanged)")
    parser.add_argument(
        "--paths",
        nargs="*",
        metavar="GLOB",
        help="the new paths, replacing the old ones; --paths alone makes it general (default: unchanged)",
    )


def options_from(args: argparse.Namespace) -> EditOptions:
    paths = tuple(args.paths) if args.paths is not None else None
    return EditOptions(id=args.id, text=args.text, paths=paths, local=LocalOptions.options_from(args))


def run(options: EditOptions) -> int:
    """Change the learning and print its id; UsageError for nothing to change or what cannot be."""
    from datetime import UTC, datetime

    from commandline.usage import UsageError
    from learnings.commands.local import load_store, store_file
    from learnings.rules.globs import GlobError, check_globs

    if options.text is None and options.paths is None:
        raise UsageError("edit: give --text, --paths or both")
    try:
        paths = check_globs(options.paths) if options.paths is not None else None
    except GlobError as error:
        raise UsageError(f"--paths: {error}") from error
    store = store_file(options.local)
    text, loaded = load_store(store, missing_is_empty=False)
    from pydantic import ValidationError

    from assistant.validation import validation_problem
    from learnings.store.edit import EditError, edit
    from learnings.store.file import save

    try:
        learnings, learning = edit(
            loaded.learnings, options.id, datetime.now(UTC), text=options.text, paths=paths
        )
    except EditError as error:
        raise UsageError(f"{store.path}: {error}") from error
    except ValidationError as error:
        raise UsageError(f"{store.path}: {validation_problem(error)}") from error
    if learnings == list(loaded.learnings):
        print(f"learnings: {learning.id} unchanged: it already says that", file=sys.stderr)
    else:
        save(store, text, learnings)
    print(learning.id)
    return 0
