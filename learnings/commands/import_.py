"""`learnings import SRC`: another learnings file merged into the local one (the same text updated, not copied)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from learnings.commands import SUMMARIES
from learnings.commands.local import LocalOptions, add_local_arguments, description

NAME = "import"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = description(SUMMARY)
EXAMPLES = ("learnings import other-repo-learnings.jsonl",)
TOKEN = False


@dataclass(frozen=True)
class ImportOptions:
    """The file to merge in (`src`, as given) and the file it goes into."""

    local: LocalOptions
    src: str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_local_arguments(parser)
    parser.add_argument("src", metavar="SRC", help="the learnings file to merge in")


def options_from(args: argparse.Namespace) -> ImportOptions:
    return ImportOptions(src=args.src, local=LocalOptions.options_from(args))


def run(options: ImportOptions) -> int:
    """Merge and say how many were added and updated; UsageError for a file that cannot be read."""
    from datetime import UTC, datetime
    from pathlib import Path

    from learnings.commands.local import load_store, store_file
    from learnings.store.file import StoreFile, save

    store = store_file(options.local)  # a configuration error answers before the source is read
    source = StoreFile(Path(options.src), named=True)
    _source_text, incoming = load_store(source, missing_is_empty=False)
    text, loaded = load_store(store, missing_is_empty=True)
    from learnings.store.edit import merge

    learnings, added, updated = merge(loaded.learnings, incoming.learnings, datetime.now(UTC))
    if added or updated:
        save(store, text, learnings)
    print(f"{store.path}: {added} added, {updated} updated from {source.path}")
    return 0
