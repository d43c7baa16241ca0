"""The configuration file `.github/assistant.toml`: every key has a default, unknown keys are errors.

Raises ConfigError with one line that names the file, the key and, where TOML says it, the line.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from assistant import config_defaults as defaults
from assistant import config_file
from assistant.identity import BOT_SUFFIX, AccountType, Identity

# Defined beside the file reading (assistant/config_file.py), which needs no pydantic.
DEFAULT_PATH = config_file.DEFAULT_PATH
ConfigError = config_file.ConfigError


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class AssistantConfig(_Section):
    """Who the assistant is and the words it answers to."""

    login: Annotated[str, Field(min_length=1)] = "triage-assistant"
    # "bot" (a GitHub App) or "user" (a machine user): an account of the other type with the same
    # login is never the assistant.
    account: AccountType = "bot"
    command: Annotated[str, Field(min_length=2, pattern=r"^\S+$")] = "/assistant"
    duplicate_label: Annotated[str, Field(min_length=1)] = "possible-duplicate"

    @field_validator("account")
    @classmethod
    def _bot_login_is_a_bot(cls, account: AccountType, info: ValidationInfo) -> AccountType:
        login = str(info.data.get("login", ""))
        if account == "user" and login.strip().lower().endswith(BOT_SUFFIX):
            raise ValueError(f"login {login!r} names a bot (GitHub App), not a user")
        return account

    @property
    def identity(self) -> Identity:
        """The assistant's account, as assistant.identity compares it."""
        return Identity(login=self.login, account=self.account)


class ContextConfig(_Section):
    """Bounds of the correction reader."""

    max_analyzed: Annotated[int, Field(ge=0, le=100)] = defaults.MAX_ANALYZED
    scan_pages: Annotated[int, Field(ge=1, le=10)] = defaults.SCAN_PAGES
    labels_file: Annotated[str, Field(min_length=1)] = defaults.LABELS_FILE


class LearningsConfig(_Section):
    """The reviewed learnings store."""

    enabled: bool = defaults.LEARNINGS_ENABLED
    file: Annotated[str, Field(min_length=1)] = defaults.LEARNINGS_FILE
    max_prompt_entries: Annotated[int, Field(ge=0, le=200)] = 20
    implicit_capture: bool = True


class Config(_Section):
    """The whole file."""

    assistant: AssistantConfig = AssistantConfig()
    context: ContextConfig = ContextConfig()
    learnings: LearningsConfig = LearningsConfig()


_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def _line_of(text: str, loc: tuple[str | int, ...]) -> int | None:
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


def _probably_meant(loc: tuple[str | int, ...]) -> str | None:
    """The known key closest to an unknown one in the same table (difflib), if any is close."""
    model: type[BaseModel] = Config
    for part in loc[:-1]:
        field = model.model_fields.get(str(part))
        annotation = field.annotation if field is not None else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return None
        model = annotation
    close = difflib.get_close_matches(str(loc[-1]), list(model.model_fields), n=1, cutoff=0.6)
    return close[0] if close else None


def _describe(error: ValidationError, path: Path, text: str) -> str:
    first = error.errors()[0]
    key = ".".join(str(part) for part in first["loc"])
    line = _line_of(text, tuple(first["loc"]))
    where = f"{path}:{line}" if line is not None else f"{path}"
    kind = first["type"]
    if kind == "extra_forbidden":
        guess = _probably_meant(tuple(first["loc"]))
        hint = f"; did you mean {guess}?" if guess else ""
        return f"{where}: unknown key {key}{hint}"
    if kind == "missing":
        return f"{where}: missing key `{key}`"
    return f"{where}: key `{key}`: {first['msg']} (got {first.get('input')!r})"


def _bounds(section: str, key: str) -> str | None:
    """The words "between LOW and HIGH" for a bounded whole-number key, from its declaration."""
    model = Config.model_fields[section].annotation
    assert isinstance(model, type) and issubclass(model, BaseModel)
    low = high = None
    for rule in model.model_fields[key].metadata:
        low = getattr(rule, "ge", low)
        high = getattr(rule, "le", high)
    return None if low is None or high is None else f"between {low} and {high}"


def with_values(config: Config, where: str, section: str, values: Mapping[str, object]) -> Config:
    """The configuration with some keys of one table replaced, validated as a file is.

    `model_copy(update=...)` would skip every bound; this validates the merged whole instead.
    Raises ConfigError naming `where` (the input or option that gave the value) and the bound.
    """
    merged = config.model_dump()
    merged[section] = {**merged[section], **values}
    try:
        return Config.model_validate(merged)
    except ValidationError as error:
        first = error.errors()[0]
        key = str(first["loc"][-1])
        bounds = _bounds(section, key) if first["type"] in {"greater_than_equal", "less_than_equal"} else None
        why = f"must be {bounds}" if bounds else f"`{section}.{key}`: {first['msg']}"
        raise ConfigError(f"{where}: {why}, got {first.get('input')!r}") from error


def validate_config(found: config_file.ConfigFile | None) -> Config:
    """The configuration of a file read by assistant.config_file (defaults when there was none)."""
    if found is None:
        return Config()
    try:
        return Config.model_validate(found.table)
    except ValidationError as error:
        raise ConfigError(_describe(error, found.path, found.text)) from error


def parse_config(text: str, path: Path) -> Config:
    """Validate the TOML text of a configuration file."""
    return validate_config(config_file.parse_toml(text, path))


def load_config(path: Path | None, *, default: Path = DEFAULT_PATH) -> Config:
    """Read the named file, or the default file when it exists, or defaults.

    A path that was named explicitly must exist. `default` is where the default file is looked
    for (the `learnings` commands look at the checkout's top folder, whatever the current one).
    """
    return validate_config(config_file.read_config_file(path, default=default))
