"""`learnings render`: the prompt block for changed paths, as the assistant would read it."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from learnings.commands import SUMMARIES
from learnings.commands.local import LocalOptions, add_local_arguments, description
from learnings.prompt.budget import LEARNINGS_PROMPT_CHARS

NAME = "render"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = description(SUMMARY)
EXAMPLES = ("learnings render --paths src/api/users.py",)
TOKEN = False


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


@dataclass(frozen=True)
class RenderOptions:
    """The changed paths, the block's bounds (`max_entries` None: the configuration's), the file."""

    local: LocalOptions
    paths: tuple[str, ...] = ()
    max_entries: int | None = None
    max_chars: int = LEARNINGS_PROMPT_CHARS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_local_arguments(parser)
    parser.add_argument(
        "--paths",
        nargs="+",
        default=[],
        metavar="PATH",
        help="the changed paths that rank learnings (default: none, general learnings only first)",
    )
    parser.add_argument(
        "--max-entries",
        type=_count,
        metavar="N",
        help="learnings in the block at most (default: [learnings] max_prompt_entries, 20)",
    )
    parser.add_argument(
        "--max-chars",
        type=_count,
        default=LEARNINGS_PROMPT_CHARS,
        metavar="N",
        help="characters of the block at most (default: %(default)s, as the action writes learnings.md)",
    )


def options_from(args: argparse.Namespace) -> RenderOptions:
    return RenderOptions(
        paths=tuple(args.paths),
        max_entries=args.max_entries,
        max_chars=args.max_chars,
        local=LocalOptions.options_from(args),
    )


def run(options: RenderOptions) -> int:
    """Write the block; UsageError for a file or configuration that cannot be read."""
    from learnings.commands.local import load_store, stale_ids, store_file
    from learnings.store.file import checkout_config

    store = store_file(options.local)
    _text, loaded = load_store(store, missing_is_empty=False)
    from learnings.prompt.block import render_block

    max_entries = options.max_entries
    if max_entries is None:
        max_entries = checkout_config(options.local.config).learnings.max_prompt_entries
    block = render_block(
        loaded.learnings,
        changed_paths=options.paths,
        max_entries=max_entries,
        max_chars=options.max_chars,
        stale_ids=stale_ids(store, loaded.learnings),
    )
    sys.stdout.write(block)
    return 0
