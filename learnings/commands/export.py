"""`learnings export`: the local file's learnings as JSONL on stdout."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from learnings.commands import SUMMARIES
from learnings.commands.local import LocalOptions, add_local_arguments, description

NAME = "export"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = description(SUMMARY)
EXAMPLES = ("learnings export > learnings-backup.jsonl",)
TOKEN = False


@dataclass(frozen=True)
class ExportOptions:
    """The file to export."""

    local: LocalOptions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_local_arguments(parser)


def options_from(args: argparse.Namespace) -> ExportOptions:
    return ExportOptions(local=LocalOptions.options_from(args))


def run(options: ExportOptions) -> int:
    """Write the learnings as JSONL; UsageError for a file that cannot be read."""
    from learnings.commands.local import load_store, store_file

    _text, loaded = load_store(store_file(options.local), missing_is_empty=False)
    from learnings.store.jsonl import to_jsonl

    sys.stdout.write(to_jsonl(loaded.learnings))
    return 0
