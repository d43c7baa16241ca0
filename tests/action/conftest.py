"""The environment GitHub Actions gives a step, around a world served by the emulator."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from emulator import Server
from tests.emulation import DEMO, GITHUB_TOKEN_BUDGET, Emulators
from tests.kit.runner import read_file_command

TOKEN = "ghs_test-token-never-printed"


@pytest.fixture
def actions_demo(emulate: Emulators) -> Server:
    """The demo world under GITHUB_TOKEN's budget, fresh for each test."""
    return emulate(DEMO, rate_limit=GITHUB_TOKEN_BUDGET)


Environment = Callable[..., dict[str, str]]


@pytest.fixture
def action_env(tmp_path: Path) -> Environment:
    """GITHUB_* and INPUT_* as the runner and action.yml set them, for one event."""

    def make(server: Any, event_name: str, payload: dict[str, Any], **inputs: str) -> dict[str, str]:
        event = tmp_path / "event.json"
        event.write_text(json.dumps(payload), encoding="utf-8")
        (tmp_path / "output").touch()
        (tmp_path / "summary").touch()
        environ = {
            "GITHUB_ACTIONS": "true",
            "GITHUB_REPOSITORY": "octo/demo",
            "GITHUB_EVENT_NAME": event_name,
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_API_URL": server.base_url,
            "GITHUB_GRAPHQL_URL": server.url,
            "GITHUB_OUTPUT": str(tmp_path / "output"),
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
            "RUNNER_TEMP": str(tmp_path / "runner-temp"),
            "INPUT_TOKEN": TOKEN,
            "INPUT_MAX_ANALYZED": "",
            "INPUT_CONFIG": "",
            "INPUT_OUT": "",
            "INPUT_BASE_REF": "",
            "INPUT_PATHS": "",
            "INPUT_PROMPT_MAX_TOKENS": "",
            "INPUT_MODE": "",
            "INPUT_PROMPT_MAX_CHARS": "",
        }
        environ.update({f"INPUT_{key.upper()}": value for key, value in inputs.items()})
        return environ

    return make


@pytest.fixture
def outputs() -> Callable[[Path], dict[str, str]]:
    return read_file_command
