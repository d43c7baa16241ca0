"""ReadOptions.resolved: the one place a command's variant of the read changes what is read."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from assistant.config import Config, Override
from corrections.read.options import WIDEST, WINDOW_INPUT, ReadOptions, ReadVariant, RemoteConfig

OPTIONS = ReadOptions(owner="octo", name="demo", config=Config())


def test_the_default_variant_reads_what_the_configuration_says() -> None:
    resolved = OPTIONS.resolved()
    assert resolved.config == OPTIONS.config
    assert resolved.overrides == ()


def test_the_widest_window_applies_over_the_configuration_and_the_one_read_at_the_base_ref() -> None:
    given = Override(WINDOW_INPUT, "context", "max_analyzed", 10)
    options = replace(
        OPTIONS,
        remote_config=RemoteConfig(".github/assistant.toml"),
        overrides=(given,),
        variant=ReadVariant(widest=True),
    )
    resolved = options.resolved()
    assert resolved.config.context.max_analyzed == WIDEST
    assert [(o.key, o.value) for o in resolved.overrides] == [("max_analyzed", WIDEST)]


def test_a_past_moment_reads_the_widest_window_unless_reading_is_off() -> None:
    as_of = ReadVariant(as_of=datetime(2026, 10, 1, tzinfo=UTC))
    assert replace(OPTIONS, variant=as_of).resolved().config.context.max_analyzed == WIDEST
    off = replace(
        OPTIONS, config=replace(OPTIONS.config, context=replace(OPTIONS.config.context, max_analyzed=0))
    )
    assert replace(off, variant=as_of).resolved().reading_off


def test_the_numbers_leave_learnings_out() -> None:
    resolved = replace(OPTIONS, variant=ReadVariant(learnings=False)).resolved()
    assert not resolved.config.learnings.enabled
    assert OPTIONS.config.learnings.enabled
