"""The environment GitHub Actions gives a step, around a world served by the emulator."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.composite import read_file_command
from emulator import serve_in_thread

DEMO = Path(__file__).resolve().parent.parent.parent / "emulator" / "worlds" / "demo.json"
TOKEN = "ghs_test-token-never-printed"


@pytest.fixture
def demo_server() -> Iterator[Any]:
    """The demo world with GITHUB_TOKEN's budget (1,000 points an hour), fresh for each test."""
    world = json.loads(DEMO.read_text(encoding="utf-8"))
    world["rate_limit"] = {"limit": 1000, "remaining": 1000, "reset_in_s": 3600}
    with serve_in_thread(world) as server:
        yield server


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
            "INPUT_PROMPT_MAX_CHARS": "",
        }
        environ.update({f"INPUT_{key.upper()}": value for key, value in inputs.items()})
        return environ

    return make


@pytest.fixture
def outputs() -> Callable[[Path], dict[str, str]]:
    return read_file_command
