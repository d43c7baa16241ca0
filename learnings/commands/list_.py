"""`learnings list`: every learning of the local file, stale ones flagged; `--json` for an array."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from learnings.commands import SUMMARIES
from learnings.commands.local import LocalOptions, add_local_arguments, description

NAME = "list"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = description(SUMMARY)
EXAMPLES = ("learnings list --json",)
TOKEN = False
_COLUMN = 40  # characters a column of `learnings list` is padded to, at most


@dataclass(frozen=True)
class ListOptions:
    """What to list: the file, and JSON or lines."""

    local: LocalOptions
    json: bool = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_local_arguments(parser)
    parser.add_argument("--json", action="store_true", help="a JSON array instead of lines")


def options_from(args: argparse.Namespace) -> ListOptions:
    return ListOptions(local=LocalOptions.options_from(args), json=args.json)


def run(options: ListOptions) -> int:
    """Print the learnings (a table as gh's, or JSON); 0, or UsageError for a file that cannot be read."""
    import json

    from assistant.untrusted import clean_line
    from learnings.commands.local import load_store, stale_ids, store_file

    store = store_file(options.local)
    _text, loaded = load_store(store, missing_is_empty=False)
    stale = stale_ids(store, loaded.learnings)
    if options.json:
        rows = [
            {**learning.model_dump(mode="json"), "stale": learning.id in stale}
            for learning in loaded.learnings
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not loaded.learnings:
        print(f"no learnings in {store.path}", file=sys.stderr)
        return 0
    table: list[tuple[str, ...]] = []
    for learning in loaded.learnings:
        status = "stale" if learning.id in stale else learning.status
        kind = f"suppression:{learning.category}" if learning.kind == "suppression" else "note"
        paths = clean_line(",".join(learning.paths)) or "(whole repository)"
        updated = learning.model_dump(mode="json")["updatedAt"]
        table.append((learning.id, status, clean_line(kind), paths, updated, clean_line(learning.text)))
    # Columns aligned as gh aligns a table; the text, last, runs on (a column is at most 40 wide).
    widths = [min(max(len(row[column]) for row in table), _COLUMN) for column in range(5)]
    for row in table:
        print("  ".join([*(cell.ljust(width) for cell, width in zip(row[:5], widths, strict=True)), row[5]]))
    return 0
