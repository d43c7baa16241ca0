"""The local learnings file a `learnings` command works on: which file, its text as stored, its new text.

The file is `--file` as given, else `[learnings] file` of the configuration, in the top folder of
the git checkout whatever the current folder. It is read exactly as stored (no newline
translation) and written atomically, so a failure leaves the old file whole. Every failure is a
UsageError of one line naming the file.

pydantic (the learnings' models) loads only once the file has been read: a missing file or a
configuration error answers before it, at once.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.config import (
    DEFAULT_PATH,
    Config,
    ConfigError,
    ConfigFile,
    key_error,
    read_config_file,
    validate_config,
)
from assistant.files import write_atomic
from commandline.checkout import link_on_the_way, top_folder
from commandline.usage import UsageError

if TYPE_CHECKING:
    from learnings.rules.model import Learning
    from learnings.store.jsonl import LoadedLearnings


@dataclass(frozen=True)
class StoreFile:
    """The learnings file a command works on, and whether the user named it (`--file`)."""

    path: Path
    named: bool


def _root() -> Path:
    """The top folder of the git checkout whatever the current folder; outside one, the current folder."""
    return top_folder() or Path.cwd()


def _shown(root: Path, relative: str | Path) -> Path:
    """A path of the repository shown relative to the current folder, as the user would type it."""
    return Path(os.path.relpath(root / relative))


def _checkout_config(named: str | None, root: Path | None) -> tuple[ConfigFile | None, Config]:
    """The configuration file read (None: defaults) and its validated configuration."""
    try:
        # git is asked for the top folder only when the default file is looked for.
        found = (
            read_config_file(Path(named))
            if named is not None
            else read_config_file(None, default=_shown(root or _root(), DEFAULT_PATH))
        )
        return found, validate_config(found)
    except ConfigError as error:
        raise UsageError(str(error)) from error


def checkout_config(named: str | None) -> Config:
    """The configuration file named (`--config`), else the checkout's `.github/assistant.toml` when it exists."""
    return _checkout_config(named, None)[1]


def locate(named: str | None, config: str | None) -> StoreFile:
    """`--file` as given, else `[learnings] file` of the configuration, in the checkout's top folder.

    The one lookup of every local command. A configured path is a stranger's when the checkout is
    (a cloned repository): relative without `..` (its key's rule) and no symbolic link on the way,
    else a configuration error naming the key. `--file` is the user's own and is taken as given.
    """
    if named is not None:
        return StoreFile(Path(named), named=True)
    root = _root()
    found, settings = _checkout_config(config, root)
    relative = settings.learnings.file
    link = link_on_the_way(root, relative)
    if link is not None:
        why = f"{link} is a symbolic link in the checkout; a configured path must not be one"
        raise UsageError(str(key_error(found, ("learnings", "file"), why, relative)))
    return StoreFile(_shown(root, relative), named=False)


def read_text(path: Path) -> str | None:
    """The file's text exactly as stored (no newline translation), or None when it does not exist."""
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except IsADirectoryError as error:
        raise UsageError(f"{path}: is a directory, not a learnings file") from error
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not UTF-8 text (byte {error.start})") from error
    except OSError as error:
        raise UsageError(f"{path}: cannot be read: {error.strerror}") from error


def load(store: StoreFile, *, missing_is_empty: bool) -> tuple[str, LoadedLearnings]:
    """The file's text and learnings (with a warning for each skipped line).

    A missing file is an empty store when `missing_is_empty` or when it is the default file.
    """
    text = read_text(store.path)
    if text is None:
        if store.named and not missing_is_empty:
            raise UsageError(f"{store.path}: learnings file not found")
        text = ""
    from learnings.store.jsonl import parse_jsonl

    return text, parse_jsonl(text, source=str(store.path))


def save(store: StoreFile, original: str, learnings: Sequence[Learning]) -> None:
    """Write the learnings over `original`, changing only the lines of learnings that changed.

    The file's folder is made when missing (by write_atomic, inside the try: a file standing where
    the folder should be is one line naming the file, as any other failed write).
    """
    from learnings.store.jsonl import updated_text

    try:
        write_atomic(store.path, updated_text(original, learnings), durable=True)
    except OSError as error:
        raise UsageError(f"{store.path}: cannot be written: {error.strerror}") from error
