"""The rule of every configuration key, in one table, and the check of a value against it.

A value is checked in plain Python (no pydantic): a configuration is valid or refused as soon as
the file is read, and a read sends its first request before pydantic loads. The words for a
refused value are pydantic's own (pydantic-core's error details for the key's schema, "Input
should be less than or equal to 100"), made only when a value is refused; the one rule pydantic
has no schema for (a path of the repository) has the project's words. Types are strict, as TOML
gives them: a boolean is not a whole number, a number is not a string. What reads these rules
(assistant/config.py) derives from this table the bounds an option names and the key an unknown
one probably meant.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from assistant.identity import BOT_SUFFIX
from assistant.suggest import closest

if TYPE_CHECKING:
    from pydantic_core import CoreSchema
REPOSITORY_PATH_RULE = "must be a path relative to the repository's top folder, without `..`"
ONE_WORD_RULE = "must be one word, without white space"


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
    choices: tuple[str, ...] = ()  # strings: one of these
    one_word: bool = False  # strings: no white space anywhere (a trailing newline included)
    # strings: a path of the repository (relative, `/`-separated, never leaving its top folder);
    # a cloned repository's configuration is a stranger's, and so is the base branch's.
    repository_path: bool = False

    def broken(self, value: object) -> Broken | None:
        """Which part of the rule the value breaks; None when it keeps the rule."""
        if not isinstance(value, self.type) or (self.type is int and isinstance(value, bool)):
            return Broken.TYPE
        if isinstance(value, int) and (
            (self.low is not None and value < self.low) or (self.high is not None and value > self.high)
        ):
            return Broken.BOUNDS
        if isinstance(value, str) and (
            len(value) < self.min_length
            or (self.choices and value not in self.choices)
            or self.own_words(value) is not None
        ):
            return Broken.VALUE
        return None

    def own_words(self, value: str) -> str | None:
        """The words of the rule pydantic has no schema for that `value` breaks (one word, a path of
        the repository); None when it breaks neither."""
        if self.one_word and value.split() != [value]:
            return ONE_WORD_RULE
        if self.repository_path and not is_repository_path(value):
            return REPOSITORY_PATH_RULE
        return None

    def words(self, value: object) -> str:
        """How a value this rule refuses breaks it: pydantic's message for the rule's schema (type,
        bounds, length, choices), else the words of the project's own rule it breaks."""
        # Only for a refused value: a valid configuration never loads pydantic-core.
        from pydantic_core import SchemaValidator, ValidationError

        try:
            SchemaValidator(self.schema()).validate_python(value)
        except ValidationError as error:
            return error.errors(include_url=False)[0]["msg"]  # the URL would import pydantic
        words = self.own_words(value) if isinstance(value, str) else None
        if words is None:
            raise ValueError(f"{value!r} keeps the rule: there are no words for how it breaks it")
        return words

    def schema(self) -> CoreSchema:
        """The rule as a pydantic-core schema: all of it but `one_word` and `repository_path`."""
        from pydantic_core import core_schema

        if self.type is bool:
            return core_schema.bool_schema(strict=True)
        if self.type is int:
            return core_schema.int_schema(strict=True, ge=self.low, le=self.high)
        text = core_schema.str_schema(strict=True, min_length=self.min_length)
        if not self.choices:
            return text
        return core_schema.chain_schema([text, core_schema.literal_schema(list(self.choices))])


# Every key of every table, in the order they are checked (the first broken rule is reported).
KEYS: dict[str, dict[str, Rule]] = {
    "assistant": {
        "login": Rule(str, min_length=1),
        # "bot" (a GitHub App) or "user" (a machine user): an account of the other type with the
        # same login is never the assistant.
        "account": Rule(str, choices=("bot", "user")),
        "command": Rule(str, min_length=2, one_word=True),
        "duplicate_label": Rule(str, min_length=1),
        # Other programs post as the assistant's account too (a machine user several bots use):
        # only its analyses' markers say which labels it put forward. `github-actions` always is.
        "shared": Rule(bool),
        # `corrections answer` holds the model's draft against what maintainers and GitHub already
        # say before it is posted (docs/rules.md, "The second look").
        "second_look": Rule(bool),
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
    """One key breaks its rule: where it is (table, key), how, in words, and the value given.

    The words are made when they are read (a message of the rule's, `Rule.words`, loads
    pydantic-core): an option out of its bounds is said with the bounds, without them.
    """

    def __init__(
        self,
        loc: tuple[str, ...],
        broken: Broken,
        message: str | Callable[[], str],
        value: object = _NOTHING,
    ) -> None:
        super().__init__()
        self.loc = loc
        self.broken = broken
        self.value = value
        self._message = message

    @property
    def message(self) -> str:
        """What rule the value breaks, in words."""
        if callable(self._message):
            self._message = self._message()
        return self._message

    @property
    def key(self) -> str:
        """The key dotted, as the file writes it: `context.max_analyzed`."""
        return ".".join(self.loc)

    def __str__(self) -> str:
        got = "" if self.value is _NOTHING else f" (got {self.value!r})"
        return f"key `{self.key}`: {self.message}{got}"


def check_section(section: str, values: Mapping[str, object]) -> None:
    """Raise InvalidKey for the first key of `section` whose value breaks its rule, or the cross-key rule."""
    for key, rule in KEYS[section].items():
        broken = rule.broken(values[key])
        if broken is not None:
            raise InvalidKey((section, key), broken, functools.partial(rule.words, values[key]), values[key])
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
