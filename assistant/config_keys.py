"""The rule of every configuration key, in one table, and the check of a value against it.

Plain Python (no pydantic): a configuration error answers as soon as the file is read. The words
of a broken rule follow pydantic's ("Input should be less than or equal to 100"), which the
configuration was validated with before. Types are strict, as TOML gives them: a boolean is not a
whole number, a number is not a string. What reads these rules (assistant/config.py) derives
from this table the bounds an option names and the key an unknown one probably meant.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from assistant.identity import BOT_SUFFIX
from assistant.suggest import closest

_TYPE_WORDS: dict[type, str] = {int: "a valid integer", str: "a valid string", bool: "a valid boolean"}
REPOSITORY_PATH_RULE = "must be a path relative to the repository's top folder, without `..`"


class ConfigError(Exception):
    """A configuration file or value that cannot be used; the message is one line for the user."""


def is_repository_path(value: str) -> bool:
    """Whether `value` names a path inside the repository: relative, `/`-separated, no `..` part."""
    return not (value.startswith("/") or "\\" in value or "\0" in value or ".." in value.split("/"))


class Broken(Enum):
    """What kind of rule a value breaks: an option names the bounds for BOUNDS."""

    TYPE = "type"
    BOUNDS = "bounds"
    VALUE = "value"
    UNKNOWN = "unknown"  # the key is not in the table


@dataclass(frozen=True)
class Rule:
    """What one key's value must be: its type and, as the key needs, bounds, length, pattern, choices."""

    type: type[int] | type[str] | type[bool]
    low: int | None = None  # whole numbers: at least
    high: int | None = None  # whole numbers: at most
    min_length: int = 0  # strings: at least this many characters
    pattern: str | None = None  # strings: the whole value matches this regular expression
    choices: tuple[str, ...] = ()  # strings: one of these
    # strings: a path of the repository (relative, `/`-separated, never leaving its top folder);
    # a cloned repository's configuration is a stranger's, and so is the base branch's.
    repository_path: bool = False

    def problem(self, value: object) -> tuple[Broken, str] | None:
        """Which part of the rule the value breaks and the words for it; None when it keeps the rule."""
        if not isinstance(value, self.type) or (self.type is int and isinstance(value, bool)):
            return Broken.TYPE, f"Input should be {_TYPE_WORDS[self.type]}"
        if isinstance(value, int) and self.low is not None and value < self.low:
            return Broken.BOUNDS, f"Input should be greater than or equal to {self.low}"
        if isinstance(value, int) and self.high is not None and value > self.high:
            return Broken.BOUNDS, f"Input should be less than or equal to {self.high}"
        if isinstance(value, str):
            return self._text_problem(value)
        return None

    def _text_problem(self, value: str) -> tuple[Broken, str] | None:
        if len(value) < self.min_length:
            plural = "" if self.min_length == 1 else "s"
            return Broken.VALUE, f"String should have at least {self.min_length} character{plural}"
        if self.pattern is not None and re.fullmatch(self.pattern, value) is None:
            return Broken.VALUE, f"String should match pattern '{self.pattern}'"
        if self.repository_path and not is_repository_path(value):
            return Broken.VALUE, REPOSITORY_PATH_RULE
        if self.choices and value not in self.choices:
            quoted = [repr(choice) for choice in self.choices]
            return Broken.VALUE, f"Input should be {', '.join(quoted[:-1])} or {quoted[-1]}"
        return None


# Every key of every table, in the order they are checked (the first broken rule is reported).
KEYS: dict[str, dict[str, Rule]] = {
    "assistant": {
        "login": Rule(str, min_length=1),
        # "bot" (a GitHub App) or "user" (a machine user): an account of the other type with the
        # same login is never the assistant.
        "account": Rule(str, choices=("bot", "user")),
        "command": Rule(str, min_length=2, pattern=r"^\S+$"),
        "duplicate_label": Rule(str, min_length=1),
        # Other programs post as the assistant's account too (a machine user several bots use):
        # only its analyses' markers say which labels it put forward. `github-actions` always is.
        "shared": Rule(bool),
    },
    "context": {
        "max_analyzed": Rule(int, low=0, high=100),
        "scan_pages": Rule(int, low=1, high=10),
        "labels_file": Rule(str, min_length=1, repository_path=True),
    },
    "learnings": {
        "enabled": Rule(bool),
        "file": Rule(str, min_length=1, repository_path=True),
        "max_prompt_entries": Rule(int, low=0, high=200),
        "implicit_capture": Rule(bool),
    },
}


_NOTHING = object()


class InvalidKey(ConfigError):
    """One key breaks its rule: where it is (table, key), how, in words, and the value given."""

    def __init__(self, loc: tuple[str, ...], broken: Broken, message: str, value: object = _NOTHING) -> None:
        self.loc = loc
        self.broken = broken
        self.message = message
        self.value = value
        got = "" if value is _NOTHING else f" (got {value!r})"
        super().__init__(f"key `{self.key}`: {message}{got}")

    @property
    def key(self) -> str:
        """The key dotted, as the file writes it: `context.max_analyzed`."""
        return ".".join(self.loc)


def check_section(section: str, values: Mapping[str, object]) -> None:
    """Raise InvalidKey for the first key of `section` whose value breaks its rule, or the cross-key rule."""
    for key, rule in KEYS[section].items():
        problem = rule.problem(values[key])
        if problem is not None:
            raise InvalidKey((section, key), *problem, values[key])
    if section == "assistant":
        _check_bot_login_is_a_bot(values)


def _check_bot_login_is_a_bot(values: Mapping[str, object]) -> None:
    """A machine user (`account = "user"`) cannot have a GitHub App's `[bot]` login."""
    login = str(values["login"])
    if values["account"] == "user" and login.strip().lower().endswith(BOT_SUFFIX):
        message = f"login {login!r} names a bot (GitHub App), not a user"
        raise InvalidKey(("assistant", "account"), Broken.VALUE, message, values["account"])


def check_known(section: str | None, keys: Mapping[str, object]) -> None:
    """Raise InvalidKey for the first key that is not in the table of `section` (None: the tables)."""
    known = KEYS if section is None else KEYS[section]
    for key in keys:
        if key not in known:
            raise InvalidKey((key,) if section is None else (section, key), Broken.UNKNOWN, "unknown key")


def probably_meant(loc: tuple[str, ...]) -> str | None:
    """The known key closest to an unknown one in the same table (assistant.suggest), if any is close."""
    known = KEYS if len(loc) == 1 else KEYS.get(loc[0], {})
    return closest(loc[-1], known)


def bounds(section: str, key: str) -> str | None:
    """The words "between LOW and HIGH" for a bounded whole-number key."""
    rule = KEYS[section][key]
    return None if rule.low is None or rule.high is None else f"between {rule.low} and {rule.high}"
