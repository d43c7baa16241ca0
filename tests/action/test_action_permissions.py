"""A workflow token without a permission the reader needs, as GitHub answers it.

GitHub refuses a field the token's permissions do not open with FORBIDDEN "Resource not accessible
by integration" (the recorded shape: tests/conformance/recordings/forbidden_partial.json,
fpicalausa/remove-stale-branches#49). Without `issues: read` it is `repository.issues`, a non-null
field, so `repository` itself comes back null (the emulator's executor propagates the null as
GitHub's does: docs/emulator.md, "Faults"). Without `contents: read` the files at the base ref are
refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from corrections.commands.action_step import run_action
from tests.emulation import DEMO, GITHUB_TOKEN_BUDGET, Emulators, world_dict

OPENED = {
    "action": "opened",
    "issue": {"number": 61, "title": "Sync fails on Windows with a long path", "body": ""},
    "repository": {"default_branch": "main"},
}
Outputs = Callable[[Path], dict[str, str]]


def _refused(path: list[str]) -> list[dict[str, Any]]:
    return [{"kind": "partial", "operation": "CorrectionWindow", "path": path, "times": None}]


def _warnings(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("::warning")]


def test_without_issues_read_the_advice_names_the_permission_not_the_repository_name(
    emulate: Emulators,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = emulate(DEMO, rate_limit=GITHUB_TOKEN_BUDGET, faults=_refused(["repository", "issues"]))
    assert run_action(action_env(server, "issues", OPENED)) == 0
    answered = [entry for entry in server.log() if entry["operation"] == "CorrectionWindow"]
    assert answered and all(entry["fault"] == "partial" for entry in answered)
    assert outputs(tmp_path / "output")["github-failed"] == "true"
    context = tmp_path / "runner-temp" / "corrections-context"
    note = json.loads((context / "corrections.json").read_text(encoding="utf-8"))["note"]
    assert note == (
        "Corrections could not be read from GitHub (the token lacks issues: read); "
        "this analysis has no corrections."
    )
    [warning, *_] = _warnings(capsys.readouterr().out)
    assert "`permissions: issues: read`" in warning
    assert "repository name" not in warning and "not found" not in warning  # before: "not found"


def test_without_contents_read_a_configuration_is_not_replaced_by_the_defaults(
    emulate: Emulators,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    world = world_dict(DEMO)
    world["files"]["main"][".github/assistant.toml"] = '[assistant]\nlogin = "triage-assistant"\n'
    server = emulate(world, rate_limit=GITHUB_TOKEN_BUDGET, faults=_refused(["repository", "configFile"]))
    assert run_action(action_env(server, "issues", OPENED)) == 0  # exit 0, as always
    out = outputs(tmp_path / "output")
    assert out["github-failed"] == "true" and out["window"] == "0"
    # Stopped after the first request: nothing read with the defaults standing in.
    assert [entry["operation"] for entry in server.log()] == ["CorrectionWindow"]
    context = tmp_path / "runner-temp" / "corrections-context"
    written = json.loads((context / "corrections.json").read_text(encoding="utf-8"))
    assert written["note"] == (
        "The configuration main:.github/assistant.toml could not be read from GitHub (the token "
        "lacks contents: read): corrections were not read, rather than read with the defaults in "
        "its place; this analysis has no corrections."
    )
    [warning, *_] = _warnings(capsys.readouterr().out)
    assert "`permissions: contents: read`" in warning


def test_without_contents_read_labels_md_missing_names_the_permission(
    emulate: Emulators,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
) -> None:
    server = emulate(DEMO, rate_limit=GITHUB_TOKEN_BUDGET, faults=_refused(["repository", "labelsFile"]))
    assert run_action(action_env(server, "issues", OPENED)) == 0
    context = tmp_path / "runner-temp" / "corrections-context"
    note = json.loads((context / "corrections.json").read_text(encoding="utf-8"))["note"]
    assert note.startswith("Some corrections could not be read from GitHub (the token lacks contents: read)")
    assert "labels.md" in note
