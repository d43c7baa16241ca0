"""The configuration file `.github/assistant.toml`: found, read, parsed as TOML and validated;
every key has a default, unknown keys are errors.

Plain frozen dataclasses, checked against the rules of assistant/config_keys.py whenever one is
built, so no configuration holds a value its rule refuses; a user's values come only through
`validate_config` (a file) or `with_values` (an option, an input), which say where the value came
from. Raises ConfigError with one line that names the file, the key and, where TOML says it, the
line. No pydantic: a configuration error answers without loading it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from assistant import config_keys
from assistant.config_keys import (
    KEYS,
    Broken,
    InvalidKey,
    bounds,
    check_known,
    check_section,
    probably_meant,
)
from assistant.identity import AccountType, Identity

DEFAULT_PATH = Path(".github/assistant.toml")
ConfigError = config_keys.ConfigError  # defined beside the rules: InvalidKey is one


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


class _Section:
    """A table of the file; its keys' rules are those of its table in config_keys.KEYS."""

    TABLE: ClassVar[str] = ""

    def __post_init__(self) -> None:
        check_section(self.TABLE, vars(self))


@dataclass(frozen=True)
class AssistantConfig(_Section):
    """Who the assistant is and the words it answers to."""

    TABLE: ClassVar[str] = "assistant"

    login: str = "triage-assistant"
    account: AccountType = "bot"
    command: str = "/assistant"
    duplicate_label: str = "possible-duplicate"
    shared: bool = False
    second_look: bool = True

    @property
    def identity(self) -> Identity:
        """The assistant's account, as assistant.identity compares it, with the marker key from
        the environment (`ASSISTANT_MARKER_KEY`: a secret, never a key of the file)."""
        from assistant.markers import marker_key  # hashlib, hmac, json: not for --version or --help

        return Identity(login=self.login, account=self.account, shared=self.shared, marker_key=marker_key())


@dataclass(frozen=True)
class ContextConfig(_Section):
    """Bounds of the correction reader."""

    TABLE: ClassVar[str] = "context"

    max_analyzed: int = 30
    scan_pages: int = 5
    labels_file: str = ".github/assistant/labels.md"


@dataclass(frozen=True)
class LearningsConfig(_Section):
    """The reviewed learnings store."""

    TABLE: ClassVar[str] = "learnings"

    enabled: bool = True
    file: str = ".github/assistant/learnings.jsonl"
    max_prompt_entries: int = 20
    implicit_capture: bool = True


@dataclass(frozen=True)
class Config:
    """The whole file; `assistant_named`: whether the file or an input named the assistant's
    login (when not, a read takes the account its token acts as: GraphQL's `viewer`)."""

    assistant: AssistantConfig = AssistantConfig()
    context: ContextConfig = ContextConfig()
    learnings: LearningsConfig = LearningsConfig()
    assistant_named: bool = False


_SECTIONS: dict[str, type[AssistantConfig] | type[ContextConfig] | type[LearningsConfig]] = {
    section.TABLE: section for section in (AssistantConfig, ContextConfig, LearningsConfig)
}


def config_from_table(table: Mapping[str, object]) -> Config:
    """The configuration of a parsed TOML table; InvalidKey (a ConfigError) for the first key it refuses.

    Keys are checked table by table in the order of config_keys.KEYS, a table's unknown keys after
    its known ones, unknown tables last.
    """
    sections: dict[str, Any] = {}
    for name, section in _SECTIONS.items():
        given = table.get(name, {})
        if not isinstance(given, dict):
            raise InvalidKey((name,), Broken.TYPE, "Input should be a table", given)
        sections[name] = section(**{key: value for key, value in given.items() if key in KEYS[name]})
        check_known(name, given)
    check_known(None, table)
    given = table.get("assistant", {})
    return Config(**sections, assistant_named=isinstance(given, dict) and "login" in given)


_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def _line_of(text: str, loc: tuple[str, ...]) -> int | None:
    """The line (from 1) where a key of a plain `[table]` / `key = ...` file is written, if found."""
    table: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _TABLE.match(line)
        if header:
            table = header.group(1)
            if loc == (table,):
                return number
            continue
        key = _KEY.match(line)
        if key and ((table is None and loc == (key.group(1),)) or loc == (table, key.group(1))):
            return number
    return None


def _describe(error: InvalidKey, path: Path, text: str) -> str:
    line = _line_of(text, error.loc)
    where = f"{path}:{line}" if line is not None else f"{path}"
    if error.broken is Broken.UNKNOWN:
        guess = probably_meant(error.loc)
        hint = f"; did you mean {guess}?" if guess else ""
        return f"{where}: unknown key {error.key}{hint}"
    return f"{where}: {error}"


def key_error(found: ConfigFile | None, loc: tuple[str, ...], message: str, value: object) -> ConfigError:
    """A ConfigError for a key whose value breaks a rule found outside the table (a configured path
    that is a link in the checkout): one line naming the file and line, or the key's default."""
    error = InvalidKey(loc, Broken.VALUE, message, value)
    if found is None or _line_of(found.text, loc) is None:
        where = f"{found.path}: " if found is not None else ""
        return ConfigError(f"{where}key `{error.key}` (its default): {message} (got {value!r})")
    return ConfigError(_describe(error, found.path, found.text))


def with_values(config: Config, where: str, section: str, values: Mapping[str, object]) -> Config:
    """The configuration with some keys of one table replaced, checked as a file is.

    Raises ConfigError naming `where` (the input or option that gave the value) and the bound.
    """
    current: dict[str, Any] = vars(getattr(config, section))
    try:
        check_known(section, values)
        replaced: Any = _SECTIONS[section](**{**current, **values})
    except InvalidKey as error:
        if error.broken is Broken.UNKNOWN:
            raise ConfigError(f"{where}: unknown key `{error.key}`") from error
        limits = bounds(*error.loc) if error.broken is Broken.BOUNDS else None
        why = f"must be {limits}" if limits else f"`{error.key}`: {error.message}"
        raise ConfigError(f"{where}: {why}, got {error.value!r}") from error
    named = config.assistant_named or (section == "assistant" and "login" in values)
    return dataclasses.replace(config, **{section: replaced}, assistant_named=named)


@dataclass(frozen=True)
class Override:
    """One key that an input or an option sets over the configuration file's value."""

    where: str  # the input or option that gave it: "input assistant-login", "--assistant-login"
    section: str
    key: str
    value: object


def with_overrides(config: Config, overrides: Iterable[Override]) -> Config:
    """The configuration with each override's key replaced, checked as a file is.

    The keys of one table are replaced together, so that two keys checked against each other
    (`login` and `account`) are judged as given. Raises ConfigError naming the inputs or options.
    """
    by_section: dict[str, list[Override]] = {}
    for override in overrides:
        by_section.setdefault(override.section, []).append(override)
    for section, given in by_section.items():
        where = " and ".join(dict.fromkeys(override.where for override in given))
        config = with_values(config, where, section, {override.key: override.value for override in given})
    return config


# The inputs (action) and options (commands) that set the assistant's account: name -> key.
ASSISTANT_OVERRIDES = {"assistant-login": "login", "assistant-account": "account"}


def assistant_overrides(given: Mapping[str, str | None], *, option: bool) -> tuple[Override, ...]:
    """The assistant's account as the inputs or options named in ASSISTANT_OVERRIDES give it
    (`given`: name -> value; empty or None: not given); `option`: `--NAME` rather than `input NAME`."""
    found: list[Override] = []
    for name, key in ASSISTANT_OVERRIDES.items():
        value = (given.get(name) or "").strip()
        if value:
            found.append(Override(f"--{name}" if option else f"input {name}", "assistant", key, value))
    return tuple(found)


def validate_config(found: ConfigFile | None) -> Config:
    """The configuration of a file `read_config_file` read (defaults when there was none)."""
    if found is None:
        return Config()
    try:
        return config_from_table(found.table)
    except InvalidKey as error:
        raise ConfigError(_describe(error, found.path, found.text)) from error


def parse_config(text: str, path: Path) -> Config:
    """Validate the TOML text of a configuration file."""
    return validate_config(parse_toml(text, path))
