"""The action reads its configuration and labels.md at the base ref through GitHub, never from the
workspace (which may hold a pull request's files): against the emulator (demo world)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from corrections.commands.action_step import run_action
from emulator import Server
from tests.emulation import DEMO, Emulators, world_dict

OPENED = {"action": "opened", "issue": {"number": 61}, "repository": {"default_branch": "main"}}
HOSTILE_CONFIG = '[assistant]\nlogin = "mallory"\n\n[context]\nlabels_file = "evil.md"\nmax_analyzed = 1\n'
Outputs = Callable[[Path], dict[str, str]]


def _served(emulate: Emulators, base_files: dict[str, str]) -> Server:
    files = world_dict(DEMO)["files"]
    files["main"].update(base_files)
    return emulate(DEMO, files=files)


@pytest.fixture
def custom_base(emulate: Emulators) -> Server:
    """The demo world whose base branch has a configuration naming another labels.md."""
    return _served(
        emulate,
        {
            ".github/assistant.toml": '[context]\nlabels_file = ".github/only-crash.md"\n',
            ".github/only-crash.md": "- `crash`: the program dies\n",
        },
    )


@pytest.fixture
def plain_base(emulate: Emulators) -> Server:
    """The demo world as it is (no configuration file on the base branch)."""
    return _served(emulate, {})


def _operations(server: Any) -> list[str]:
    return [entry["operation"] for entry in server.log()]


def test_a_workspace_configuration_is_never_read(  # noqa: PLR0917 - pytest fixtures
    plain_base: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    workspace = tmp_path / "workspace"
    (workspace / ".github").mkdir(parents=True)
    (workspace / ".github" / "assistant.toml").write_text(HOSTILE_CONFIG, encoding="utf-8")
    (workspace / "evil.md").write_text("- `wontfix`: planted\n", encoding="utf-8")
    monkeypatch.chdir(workspace)

    assert run_action(action_env(plain_base, "issues", OPENED)) == 0

    out = outputs(tmp_path / "output")
    # 13 corrected in the window, #9 and #6 from the horizon past it.
    assert (out["window"], out["corrected"]) == ("30", "15")
    # The default case costs what it did: the configuration rides along in round trip 1.
    assert _operations(plain_base)[0] == "CorrectionWindow" and "BaseFiles" not in _operations(plain_base)
    assert "evil.md" not in (tmp_path / "summary").read_text(encoding="utf-8")
    capsys.readouterr()


def test_the_base_configuration_names_the_files_read_in_round_trip_two(
    custom_base: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_action(action_env(custom_base, "issues", OPENED)) == 0

    assert _operations(custom_base)[:2] == ["CorrectionWindow", "BaseFiles"]
    context = Path(outputs(tmp_path / "output")["context"])
    written = json.loads((context / "corrections.json").read_text(encoding="utf-8"))
    labels = {name for c in written["corrections"] for name in (*c["labels_removed"], *c["labels_added"])}
    assert labels == {"crash"}
    assert ".github/only-crash.md" in (tmp_path / "summary").read_text(encoding="utf-8")
    capsys.readouterr()


def test_a_named_configuration_missing_at_the_base_is_a_configuration_error(
    plain_base: Any,
    action_env: Callable[..., dict[str, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_action(action_env(plain_base, "issues", OPENED, config="missing.toml")) == 2
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and "main:missing.toml: configuration file not found at the base ref" in errors[0]


@pytest.fixture
def off_at_base(emulate: Emulators) -> Server:
    """The demo world whose base branch turns corrections off."""
    return _served(emulate, {".github/assistant.toml": "[context]\nmax_analyzed = 0\n"})


def test_corrections_off_at_the_base_stop_after_the_first_request(
    off_at_base: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_action(action_env(off_at_base, "issues", OPENED)) == 0
    assert _operations(off_at_base) == ["CorrectionWindow"]
    assert outputs(tmp_path / "output")["window"] == "0"
    assert "max_analyzed = 0 in the base branch's configuration" in (tmp_path / "summary").read_text(
        encoding="utf-8"
    )
    capsys.readouterr()


def test_a_base_configuration_nested_too_deeply_is_a_configuration_error(
    emulate: Emulators, action_env: Callable[..., dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    """3,000 nested arrays in the base's configuration gave an internal error."""
    server = _served(emulate, {".github/assistant.toml": "a = " + "[" * 3_000 + "]" * 3_000 + "\n"})
    assert run_action(action_env(server, "issues", OPENED)) == 2
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if line.startswith("::error")]
    assert (
        len(errors) == 1 and "assistant.toml: not valid TOML: arrays or tables nested too deeply" in errors[0]
    )
    assert "internal error" not in out


@pytest.mark.parametrize(
    ("key", "value"),
    [("learnings.file", "../../../home/runner/.ssh/id_ed25519"), ("context.labels_file", "/etc/passwd")],
)
def test_a_base_path_outside_the_repository_is_a_configuration_error(  # noqa: PLR0917 - pytest fixtures
    emulate: Emulators,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    key: str,
    value: str,
) -> None:
    # The base branch's configuration is a stranger's too (anyone who could push to it once).
    table, name = key.split(".")
    server = _served(emulate, {".github/assistant.toml": f'[{table}]\n{name} = "{value}"\n'})
    assert run_action(action_env(server, "issues", OPENED)) == 2
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error")]
    assert len(errors) == 1
    assert (
        f"main:.github/assistant.toml:2: key `{key}`: must be a path relative to the repository" in errors[0]
    )
    assert _operations(server) == ["CorrectionWindow"]  # nothing was asked at that path
