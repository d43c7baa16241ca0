"""The rules' settings are built once a run, from the base branch's configuration and labels.md:
the read, the context it writes and the step summary's repeats all use the ones the read built."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from assistant.config import Config
from corrections.commands.action_step import run_action
from corrections.rules.settings import RuleSettings

OPENED = {
    "action": "opened",
    "issue": {"number": 61, "title": "Sync fails on Windows", "body": "long paths"},
    "repository": {"default_branch": "main"},
}


def test_one_action_step_builds_the_rules_settings_once(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before: once with the step's defaults, again when the base branch's files came, and a third
    time for the summary's repeats."""
    built: list[Config] = []
    from_config = RuleSettings.from_config

    def counted(config: Config) -> RuleSettings:
        built.append(config)
        return from_config(config)

    monkeypatch.setattr(RuleSettings, "from_config", counted)
    assert run_action(action_env(actions_demo, "issues", OPENED)) == 0
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert "- Recurrences in " in summary  # the summary's recurrences ran the rules too
    assert len(built) == 1
