"""Finding, reading and TOML-parsing the configuration file.

A missing, unreadable or malformed file is reported here, before the rules of the keys are even
loaded; assistant/config.py validates what this module parsed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path(".github/assistant.toml")


class ConfigError(Exception):
    """A configuration file that cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class ConfigFile:
    """A configuration file read and parsed as TOML, not yet validated."""

    path: Path
    text: str
    table: dict[str, Any]


def parse_toml(text: str, path: Path) -> ConfigFile:
    """The TOML text of a configuration file, parsed; ConfigError when it is not TOML.

    tomllib recurses once per level of nested arrays and inline tables: a file nested deeper than
    Python's stack is a configuration error like any other text that is not TOML.
    """
    import tomllib  # only when there is a file: a read with none sends its first request sooner

    try:
        return ConfigFile(path, text, tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from error
    except RecursionError as error:
        raise ConfigError(f"{path}: not valid TOML: arrays or tables nested too deeply") from error


def read_config_file(path: Path | None, *, default: Path = DEFAULT_PATH) -> ConfigFile | None:
    """The named file, or the default file when it exists (None when it does not), parsed as TOML.

    A path that was named explicitly must exist.
    """
    if path is None:
        if not default.exists():
            return None
        path = default
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise ConfigError(f"{path}: configuration file not found") from error
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot be read: {error}") from error
    return parse_toml(text, path)
