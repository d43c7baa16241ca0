"""What the local `learnings` commands share: `--file` and `--config`, the words of their help,
and the file they work on (found, read with its warnings, its stale learnings).

They work on the local learnings file only (learnings.store.file finds and reads it); staleness is
looked for against git (learnings.store.tracked_files). The learnings' models (pydantic) load once
the file has been read, and the renderer (jinja2) only for what shows it, so a missing file or
configuration answers at once. A usage error is raised as UsageError (the command line prints it);
a skipped line of the store is a warning on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from commandline.arguments import add_config_argument

if TYPE_CHECKING:
    from learnings.rules.model import Learning
    from learnings.store.file import StoreFile
    from learnings.store.jsonl import LoadedLearnings

LOCAL = (
    "Works on the local learnings file: --file, else [learnings] file of the configuration "
    "(.github/assistant/learnings.jsonl), in the top folder of the git checkout whatever the current "
    "folder. No token needed."
)


def description(summary: str) -> str:
    """A local command's description: its summary as a sentence, then where its file is."""
    return f"{summary[0].upper()}{summary[1:]}. {LOCAL}"


@dataclass(frozen=True)
class LocalOptions:
    """`--file` and `--config` of a local command (None: the defaults)."""

    file: str | None = None
    config: str | None = None

    @classmethod
    def options_from(cls, args: argparse.Namespace) -> LocalOptions:
        """The options add_local_arguments declared, as parsed (each local command's `options_from` calls it)."""
        return cls(file=args.file, config=args.config)


def add_local_arguments(parser: argparse.ArgumentParser) -> None:
    """`--file` and `--config`, first among a local command's options."""
    parser.add_argument(
        "--file",
        help="the learnings file (default: [learnings] file of the configuration, "
        ".github/assistant/learnings.jsonl, in the checkout's top folder)",
    )
    add_config_argument(
        parser,
        help="the configuration file (default: .github/assistant.toml in the checkout's top folder, when it exists)",
        metavar=None,
    )


def store_file(options: LocalOptions) -> StoreFile:
    """The file the command works on; a configuration error is a UsageError."""
    from learnings.store.file import locate

    return locate(options.file, options.config)


def load_store(store: StoreFile, *, missing_is_empty: bool) -> tuple[str, LoadedLearnings]:
    """The file's text and learnings; a warning on stderr for each skipped line."""
    from commandline.notices import Notices
    from learnings.store.file import load

    text, loaded = load(store, missing_is_empty=missing_is_empty)
    say = Notices("learnings")
    for warning in loaded.warnings:
        say.warning(warning)
    say.close()
    return text, loaded


def stale_ids(store: StoreFile, learnings: Sequence[Learning]) -> frozenset[str]:
    """Stale learnings against the files git tracks; a note on stderr outside a git checkout."""
    from learnings.store.tracked_files import stale_in_checkout

    found = stale_in_checkout(store.path, learnings)
    if found is None:
        print("learnings: note: not in a git checkout, stale learnings not looked for", file=sys.stderr)
        return frozenset()
    return found


def find(learnings: Sequence[Learning], store: StoreFile, learning_id: str) -> Learning:
    """The learning of that id; UsageError naming the file when there is none."""
    from commandline.usage import UsageError

    found = next((learning for learning in learnings if learning.id == learning_id), None)
    if found is None:
        raise UsageError(f"{store.path}: unknown learning id `{learning_id}`")
    return found
