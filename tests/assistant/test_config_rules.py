"""The configuration's rules (assistant/config_keys.py) hold for a file, an option and code alike."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import SchemaValidator, ValidationError

from assistant.config import (
    AssistantConfig,
    Config,
    ConfigError,
    ContextConfig,
    LearningsConfig,
    config_from_table,
    parse_config,
    with_values,
)
from assistant.config_keys import KEYS, ONE_WORD_RULE, REPOSITORY_PATH_RULE, Rule

SECTIONS = {"assistant": AssistantConfig, "context": ContextConfig, "learnings": LearningsConfig}


RULES = [(f"{section}.{key}", rule) for section, rules in KEYS.items() for key, rule in rules.items()]
# What a TOML file can give a key, and the values near each rule's edges.
VALUES = (
    st.booleans()
    | st.integers(min_value=-2, max_value=12)  # every bound of the table and either side of it
    | st.integers(min_value=98, max_value=202)
    | st.text(
        alphabet=st.characters(codec="utf-8") | st.sampled_from([" ", "\n", "\x1c", "/", "."]), max_size=8
    )
    | st.sampled_from(["bot", "user", "app", "/assistant", "/ask\n", "docs/labels.md", "../x", "/abs"])
    | st.floats(allow_nan=False)
    | st.lists(st.integers(), max_size=2)
)


@functools.cache
def _validator(rule: Rule) -> SchemaValidator:
    return SchemaValidator(rule.schema())


@pytest.mark.parametrize("rule", [rule for _, rule in RULES], ids=[key for key, _ in RULES])
@settings(max_examples=60, deadline=None)
@given(value=VALUES)
def test_the_plain_check_refuses_what_pydantic_or_the_own_rules_refuse(rule: Rule, value: object) -> None:
    """The check a valid file goes through (plain Python) and the schema a refusal is worded from
    (pydantic-core) agree: every refused value has pydantic's words or the project's own."""
    try:
        _validator(rule).validate_python(value)
        pydantic_refuses = False
    except ValidationError:
        pydantic_refuses = True
    own = isinstance(value, str) and rule.own_words(value) is not None
    assert (rule.broken(value) is not None) == (pydantic_refuses or own)
    if rule.broken(value) is not None:
        assert rule.words(value)


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("context.max_analyzed", True, "Input should be a valid integer"),
        ("context.scan_pages", 11, "Input should be less than or equal to 10"),
        ("assistant.command", "/", "String should have at least 2 characters"),
        ("assistant.account", "app", "Input should be 'bot' or 'user'"),
        ("assistant.account", 3, "Input should be a valid string"),
        ("learnings.enabled", "yes", "Input should be a valid boolean"),
        ("assistant.command", "/a b", ONE_WORD_RULE),
        ("learnings.file", "../learnings.jsonl", REPOSITORY_PATH_RULE),
    ],
)
def test_a_refusal_is_worded_by_pydantic_or_by_the_rule_pydantic_has_no_schema_for(
    key: str, value: object, words: str
) -> None:
    section, name = key.split(".")
    assert KEYS[section][name].words(value) == words


def test_the_table_has_a_rule_for_every_key_of_the_configuration_in_its_order() -> None:
    """A key without a rule would take any value; a rule without a key would break every build.

    `assistant_named` is no key of the file: it says whether the file or an input named the login."""
    assert [field.name for field in dataclasses.fields(Config)] == [*KEYS, "assistant_named"]
    assert "assistant_named" not in KEYS
    for name, section in SECTIONS.items():
        assert [field.name for field in dataclasses.fields(section)] == list(KEYS[name])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # Strict types, as TOML gives them: no boolean for a number, no number for a string or a boolean.
        (
            "[context]\nscan_pages = true\n",
            "a.toml:2: key `context.scan_pages`: Input should be a valid integer (got True)",
        ),
        (
            "[context]\nscan_pages = 2.0\n",
            "a.toml:2: key `context.scan_pages`: Input should be a valid integer (got 2.0)",
        ),
        (
            "[assistant]\nlogin = 7\n",
            "a.toml:2: key `assistant.login`: Input should be a valid string (got 7)",
        ),
        (
            "[learnings]\nenabled = 1\n",
            "a.toml:2: key `learnings.enabled`: Input should be a valid boolean (got 1)",
        ),
        (
            "[learnings]\nmax_prompt_entries = 201\n",
            "a.toml:2: key `learnings.max_prompt_entries`: Input should be less than or equal to 200 (got 201)",
        ),
        (
            "[context]\nmax_analyzed = -1\n",
            "a.toml:2: key `context.max_analyzed`: Input should be greater than or equal to 0 (got -1)",
        ),
        (
            '[assistant]\ncommand = "/"\n',
            "a.toml:2: key `assistant.command`: String should have at least 2 characters (got '/')",
        ),
        # The whole command must be one word: a trailing newline does not slip past `$`.
        (
            '[assistant]\ncommand = "/ask\\n"\n',
            "a.toml:2: key `assistant.command`: must be one word, without white space (got '/ask\\n')",
        ),
        (
            '[assistant]\naccount = "app"\n',
            "a.toml:2: key `assistant.account`: Input should be 'bot' or 'user' (got 'app')",
        ),
        (
            '[assistant]\naccount = "user"\nlogin = "Helper[BOT] "\n',
            "a.toml:2: key `assistant.account`: login 'Helper[BOT] ' names a bot (GitHub App), not a user (got 'user')",
        ),
        ("# tuned\ncontext = 3\n", "a.toml:2: key `context`: Input should be a table (got 3)"),
        ("[learnings]\nfiel = 'x'\n", "a.toml:2: unknown key learnings.fiel; did you mean file?"),
        ("[context]\nmax_analyzed = 3\n[extra]\n", "a.toml:3: unknown key extra"),
        # The second look's switch (issue 32): a boolean, and a misspelling names it.
        (
            '[assistant]\nsecond_look = "no"\n',
            "a.toml:2: key `assistant.second_look`: Input should be a valid boolean (got 'no')",
        ),
        (
            "[assistant]\nsecond_lock = false\n",
            "a.toml:2: unknown key assistant.second_lock; did you mean second_look?",
        ),
        # A key's error comes before an unknown key of the same table, as it did with pydantic.
        (
            "[context]\nbogus = 1\nscan_pages = 0\n",
            "a.toml:3: key `context.scan_pages`: Input should be greater than or equal to 1 (got 0)",
        ),
    ],
)
def test_a_file_breaking_a_rule_gets_one_line_naming_the_file_line_and_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_config(text, Path("a.toml"))
    assert str(raised.value) == message


def test_a_valid_file_sets_its_keys_and_leaves_the_others_to_their_defaults() -> None:
    config = parse_config(
        '[assistant]\nlogin = "helper"\naccount = "user"\n[learnings]\nenabled = false\nmax_prompt_entries = 0\n',
        Path("a.toml"),
    )
    assert config.assistant.identity.login == "helper" and config.assistant.identity.account == "user"
    assert (config.learnings.enabled, config.learnings.max_prompt_entries) == (False, 0)
    assert config.context == ContextConfig() and config.assistant.command == AssistantConfig().command


def test_a_table_of_settings_builds_the_same_configuration_as_code() -> None:
    table = {"context": {"max_analyzed": 3}, "learnings": {"implicit_capture": False}}
    expected = Config(
        context=ContextConfig(max_analyzed=3), learnings=LearningsConfig(implicit_capture=False)
    )
    assert config_from_table(table) == expected
    assert config_from_table({}) == Config()


@pytest.mark.parametrize(
    ("section", "values", "message"),
    [
        ("learnings", {"max_prompt_entries": 201}, "input x: must be between 0 and 200, got 201"),
        (
            "context",
            {"max_analyzed": True},
            "input x: `context.max_analyzed`: Input should be a valid integer, got True",
        ),
        ("context", {"max_analysed": 3}, "input x: unknown key `context.max_analysed`"),
        (
            "assistant",
            {"account": "user", "login": "helper[bot]"},
            "input x: `assistant.account`: login 'helper[bot]' names a bot (GitHub App), not a user, got 'user'",
        ),
    ],
)
def test_a_value_given_over_the_configuration_meets_the_same_rules(
    section: str, values: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        with_values(Config(), "input x", section, values)
    assert str(raised.value) == message


def test_code_cannot_build_or_copy_a_configuration_the_rules_refuse() -> None:
    """Users' values come through the validator; code that builds one directly is held to the same rules."""
    with pytest.raises(
        ConfigError, match=r"^key `context.max_analyzed`: Input should be less than or equal to 100"
    ):
        ContextConfig(max_analyzed=500)
    with pytest.raises(ConfigError, match="names a bot"):
        AssistantConfig(login="helper[bot]", account="user")
    with pytest.raises(ConfigError, match=r"^key `context.scan_pages`"):
        dataclasses.replace(ContextConfig(), scan_pages=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config().context.max_analyzed = 500  # type: ignore[misc]
    assert Config(context=ContextConfig(max_analyzed=3)).context.max_analyzed == 3
