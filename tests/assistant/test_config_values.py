"""Values given over a configuration (options, the action's inputs) meet the same bounds as the file."""

from __future__ import annotations

import pytest

from assistant.config import Config, ConfigError, with_values


def test_a_value_over_the_bound_is_refused_with_the_bound() -> None:
    with pytest.raises(ConfigError, match=r"^--scan-pages: must be between 1 and 10, got 11$"):
        with_values(Config(), "--scan-pages", "context", {"scan_pages": 11})


def test_a_value_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"^input x: `learnings.enabled`: .*, got 'yes'$"):
        with_values(Config(), "input x", "learnings", {"enabled": "yes"})


def test_a_value_within_bounds_replaces_only_its_key() -> None:
    config = with_values(Config(), "--max-analyzed", "context", {"max_analyzed": 0})
    assert config.context.max_analyzed == 0
    assert config.context.scan_pages == Config().context.scan_pages
    assert config.learnings == Config().learnings
