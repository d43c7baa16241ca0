"""`learnings show ID`: one learning of the local file, every field; `--json` for an object."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING

from learnings.commands import SUMMARIES
from learnings.commands.local import LocalOptions, add_local_arguments, description

if TYPE_CHECKING:
    from learnings.rules.model import Source

NAME = "show"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = description(SUMMARY)
EXAMPLES = ("learnings show l_x7c2",)
TOKEN = False


@dataclass(frozen=True)
class ShowOptions:
    """Which learning, in which file, as lines or JSON."""

    local: LocalOptions
    id: str
    json: bool = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_local_arguments(parser)
    parser.add_argument("id", metavar="ID", help="the learning's id (l_ and letters or digits)")
    parser.add_argument("--json", action="store_true", help="the learning as JSON")


def options_from(args: argparse.Namespace) -> ShowOptions:
    return ShowOptions(id=args.id, local=LocalOptions.options_from(args), json=args.json)


def _describe_source(source: Source) -> str:
    from learnings.prompt.block import source_parts

    return ", ".join(source_parts(source)) or "written by hand"


def run(options: ShowOptions) -> int:
    """Print the learning; 0, or UsageError for an unknown id or a file that cannot be read."""
    import json

    from assistant.untrusted import clean_line
    from learnings.commands.local import find, load_store, stale_ids, store_file

    store = store_file(options.local)
    _text, loaded = load_store(store, missing_is_empty=False)
    learning = find(loaded.learnings, store, options.id)
    stale = stale_ids(store, [learning])
    if options.json:
        row = {**learning.model_dump(mode="json"), "stale": learning.id in stale}
        print(json.dumps(row, ensure_ascii=False, indent=2))
        return 0
    dates = learning.model_dump(mode="json")
    status = (
        f"{learning.status}, stale (no tracked file matches its paths)"
        if learning.id in stale
        else learning.status
    )
    rows = [
        ("id", learning.id),
        ("status", status),
        ("kind", learning.kind),
        ("text", clean_line(learning.text)),
        ("paths", clean_line(", ".join(learning.paths)) or "(whole repository)"),
        ("category", clean_line(learning.category or "-")),
        ("source", _describe_source(learning.source)),
        ("created", dates["createdAt"]),
        ("updated", dates["updatedAt"]),
    ]
    for name, value in rows:
        print(f"{name + ':':<10}{value}")
    return 0
