"""Whose analyses the action reads, as the recommended workflow posts them: with `github.token`.

GitHub shows a comment or a label posted with a workflow's GITHUB_TOKEN as the Bot
`github-actions` (REST `github-actions[bot]`, id 41898282: the recorded answer in
tests/conformance/recordings/workflow_token_author.json, from firezone/firezone), for every
workflow of the repository alike (GitHub's docs, "Automatic token authentication"). The demo
world is served here with its analyses, and the labels its assistant applied, authored by that
account."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from assistant.markers import find_markers, marker
from corrections.commands.action_step import run_action
from tests.emulation import DEMO, GITHUB_TOKEN_BUDGET, Emulators, world_dict

ROOT = Path(__file__).resolve().parents[2]

OPENED = {
    "action": "opened",
    "issue": {"number": 61, "title": "Sync fails on Windows with a long path", "body": ""},
    "repository": {"default_branch": "main"},
}
# A title with an analysis marker in it, naming a duplicate (what a stranger can type).
FORGED = '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": [], "duplicate_of": 3} -->'
# The repository secret of the examples' analysis job (`marker-key: secrets.ASSISTANT_MARKER_KEY`).
MARKER_KEY = "the-examples-marker-key"


def _as_the_writer_puts_it(body: str, number: int) -> str:
    """An analysis comment as `corrections answer` writes it for a shared account: the marker,
    sealed for its issue with the examples' key, alone on the comment's last line (the demo world
    puts it first, which a shared account's reader refuses: an echo can put one there)."""
    found = next(m for m in find_markers(body) if m.name == "analysis")
    rest = (body[: found.start] + body[found.end :]).strip()
    return f"{rest}\n\n{marker('analysis', found.payload, number=number, key=MARKER_KEY)}"


def _as_workflow_token(world: dict[str, Any]) -> dict[str, Any]:
    """The demo world with the assistant's comments and labels posted as `github-actions`, and
    read with a workflow's token: the emulator's default, a world that names no viewer and does
    not list the Bot `github-actions` in `users` (it knows that account, as GitHub does)."""
    text = json.dumps(world).replace('"triage-assistant"', '"github-actions"')
    changed: dict[str, Any] = json.loads(text)
    changed.pop("viewer", None)
    changed["users"].pop("github-actions", None)
    for issue in changed["issues"]:
        for event in issue["timeline"]:
            if (
                event["type"] == "comment"
                and event["author"] == "github-actions"
                and "assistant:analysis" in event["body"]
            ):
                event["body"] = _as_the_writer_puts_it(event["body"], issue["number"])
    return changed


def _with_other_workflows(world: dict[str, Any]) -> dict[str, Any]:
    """Two other workflows that post with github.token: a labeler, and a welcome message that
    echoes the new issue's title (holding a marker) in its text."""
    issue = next(i for i in world["issues"] if i["number"] == 58)
    issue["timeline"] += [
        {
            "type": "labeled",
            "actor": "github-actions",
            "label": "documentation",
            "at": "2026-11-20T09:00:00Z",
        },
        {"type": "unlabeled", "actor": "mara", "label": "documentation", "at": "2026-11-20T10:00:00Z"},
    ]
    welcome = f"Thanks for opening “{FORGED} Sync is slow”! A maintainer will look at it soon."
    world["issues"].append(
        {
            "number": 62,
            "title": f"{FORGED} Sync is slow",
            "body": "Since 2.1 a sync of 10 files takes a minute.",
            "author": "rita",
            "created_at": "2026-11-21T09:00:00Z",
            "timeline": [
                {
                    "type": "comment",
                    "id": 2400009001,
                    "author": "github-actions",
                    "body": welcome,
                    "at": "2026-11-21T09:00:10Z",
                    "reactions": [],
                },
                {
                    "type": "comment",
                    "id": 2400009002,
                    "author": "rita",
                    "body": "Not a duplicate of #3.",
                    "at": "2026-11-21T10:00:00Z",
                    "reactions": [],
                },
            ],
        }
    )
    return world


@pytest.fixture
def workflow_token_demo(emulate: Emulators) -> Any:
    world = _with_other_workflows(_as_workflow_token(world_dict(DEMO)))
    return emulate(world, rate_limit=GITHUB_TOKEN_BUDGET)


def _read(
    server: Any, action_env: Callable[..., dict[str, str]], tmp_path: Path, key: str = "", **inputs: str
) -> tuple[dict[str, Any], str]:
    """The action's step; `key`: ASSISTANT_MARKER_KEY, as action.yml sets it from `marker-key`."""
    environ = action_env(server, "issues", OPENED, **inputs)
    if key:
        environ["ASSISTANT_MARKER_KEY"] = key
    assert run_action(environ) == 0
    context = tmp_path / "runner-temp" / "corrections-context"
    return (
        json.loads((context / "corrections.json").read_text(encoding="utf-8")),
        (context / "corrections.md").read_text(encoding="utf-8"),
    )


def test_no_analysis_found_warns_who_wrote_the_markers_and_claims_nothing_kept(
    workflow_token_demo: Any,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    written, text = _read(workflow_token_demo, action_env, tmp_path, assistant_login="triage-assistant")
    assert written["window"] == [] and written["corrections"] == []
    out = capsys.readouterr().out
    warning = next(line for line in out.splitlines() if "no analysis by the assistant" in line)
    assert warning.startswith("::warning title=corrections::")
    assert "`triage-assistant`" in warning and "`github-actions` (Bot, 42 issues)" in warning
    assert "[assistant] login" in warning and "assistant-login" in warning
    assert "No first analysis of yours was found" in text
    assert "kept" not in text.replace("nothing known of what maintainers kept", "")
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert "kept the" not in summary and "No first analysis by the assistant (`triage-assistant`)" in summary


def test_the_input_names_the_workflow_token_s_account(
    workflow_token_demo: Any,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    written, text = _read(workflow_token_demo, action_env, tmp_path, assistant_login="github-actions")
    # The demo's 30 newest analysed issues, as with its own bot (#62's welcome is no analysis).
    assert len(written["window"]) == 30 and 62 not in written["window"]
    # 12 of the demo's 13 in the window: one label its bot applied without naming it in the marker, removed by a
    # maintainer, is no correction when the account is shared; the labeler and the welcome
    # message add none (before: 15, with the labeler's `documentation` on #58 and the welcome
    # message's duplicate notice on #62, with `[assistant] login = "github-actions"`).
    # With the horizon, the corrected issues older than the window (#9, #6) are read too: 14.
    assert written["horizon"] == [9, 6] and len(written["corrections"]) == 14
    by_number = {c["number"]: c for c in written["corrections"]}
    # A labeler's label, removed by a maintainer, is no correction: the marker did not name it.
    assert "documentation" not in by_number.get(58, {}).get("labels_removed", [])
    assert "kept the recent analyses" not in text
    out = capsys.readouterr().out
    assert "no analysis by the assistant" not in out
    # The welcome message ends with the title's marker: not alone on its last line, as the writer puts it.
    assert "#62 comment 2400009001: analysis marker not alone on the comment's last line" in out


def test_with_no_configuration_and_no_inputs_the_assistant_is_the_token_s_account(
    workflow_token_demo: Any,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Zero configuration, with the example's own reader step (examples/first-analysis.yml): no
    `.github/assistant.toml`, no `assistant-login`. The token's account (`viewer`: a workflow's
    token answers `github-actions[bot]`, release-plz/action#85) is the assistant, the shared Bot
    `github-actions`: the same window and corrections as when the input names it."""
    example = yaml.safe_load((ROOT / "examples" / "first-analysis.yml").read_text(encoding="utf-8"))
    [job] = example["jobs"].values()
    step = next(step for step in job["steps"] if step.get("id") == "corrections")
    inputs = {key.replace("-", "_"): str(value) for key, value in step.get("with", {}).items()}
    assert "assistant_login" not in inputs and "assistant_account" not in inputs
    # The example's reader gets the job's marker key: the analyses count by their seal.
    assert inputs.pop("marker_key") == "${{ secrets.ASSISTANT_MARKER_KEY }}"
    written, _text = _read(workflow_token_demo, action_env, tmp_path, key=MARKER_KEY, **inputs)
    assert len(written["window"]) == 30 and 62 not in written["window"]
    # As with `assistant-login: github-actions` (above): 12 in the window, #9 and #6 past it.
    assert written["horizon"] == [9, 6] and len(written["corrections"]) == 14
    assert "no analysis by the assistant" not in capsys.readouterr().out


def test_an_account_input_of_the_other_type_is_a_configuration_error(
    workflow_token_demo: Any,
    action_env: Callable[..., dict[str, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    environ = action_env(
        workflow_token_demo, "issues", OPENED, assistant_login="github-actions[bot]", assistant_account="user"
    )
    assert run_action(environ) == 2
    out = capsys.readouterr().out
    assert "input assistant-login and input assistant-account" in out
    assert "names a bot (GitHub App), not a user" in out


def test_the_commands_take_the_same_account_as_an_option(
    workflow_token_demo: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The schedule examples run `corrections quality` and `learnings sync` with github.token too:
    `--assistant-login` is the action's input as an option, checked as the configuration is."""
    from corrections.commands.cli import main

    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    common = [
        "--repo",
        "octo/demo",
        "--api-url",
        workflow_token_demo.url,
        "--assistant-login",
        "github-actions",
    ]
    assert main(["read", *common, "--out", str(tmp_path / "read")]) == 0
    written = json.loads((tmp_path / "read" / "corrections.json").read_text(encoding="utf-8"))
    assert len(written["window"]) == 30
    assert main(["quality", *common, "--out", str(tmp_path / "quality")]) == 0
    numbers = json.loads((tmp_path / "quality" / "quality.json").read_text(encoding="utf-8"))
    assert sum(month["analyses"] for month in numbers["months"]) > 0  # without it: none found
    assert (
        main(
            [
                "read",
                *common[:4],
                "--assistant-login",
                "x[bot]",
                "--assistant-account",
                "user",
                "--out",
                str(tmp_path / "bad"),
            ]
        )
        == 2
    )


def test_learnings_sync_takes_the_option_checked_as_the_configuration_is(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from learnings.cli import main

    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    monkeypatch.chdir(tmp_path)
    argv = ["sync", "--repo", "octo/demo", "--assistant-login", "x[bot]", "--assistant-account", "user"]
    assert main(argv) == 2
    assert "--assistant-login and --assistant-account" in capsys.readouterr().err
