"""The action's Python entry with the environment GitHub sets, against the emulator (demo world)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from corrections.commands.action_step import run_action
from corrections.render.pointers import pointing_only_at
from corrections.render.prompt_budget import DEFAULT_MAX_TOKENS
from corrections.render.tokens import count_tokens
from tests.emulation import DEMO, GITHUB_TOKEN_BUDGET, Emulators

TOKEN = "ghs_test-token-never-printed"
# As GitHub sends it: the new issue with its title and body (which rank the corrections).
WINDOWS_ISSUE = {
    "number": 61,
    "title": "Sync fails on Windows with a long path",
    "body": "On Windows 11 `demo sync C:\\Users\\ana\\projects` fails for paths longer than 260 characters.",
}
OPENED = {"action": "opened", "issue": WINDOWS_ISSUE, "repository": {"default_branch": "main"}}
Outputs = Callable[[Path], dict[str, str]]


def test_first_analysis_reads_writes_outputs_and_summary(  # noqa: PLR0917 - pytest fixtures
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    snapshot: SnapshotAssertion,
) -> None:
    environ = action_env(actions_demo, "issues", OPENED)
    assert run_action(environ) == 0
    out = outputs(tmp_path / "output")
    context = tmp_path / "runner-temp" / "corrections-context"
    served = actions_demo.log()
    assert out == {
        "mode": "first-analysis",
        "skipped": "false",
        "context": str(context),
        "prompt-file": str(context / "prompt.md"),
        "window": "30",
        "corrected": "15",  # 13 in the window, 2 of the horizon past it
        "requests": str(len(served)),
        "points": str(sum(entry.get("cost") or 0 for entry in served)),
        "remaining": str(1000 - sum(entry.get("cost") or 0 for entry in served)),
        "github-failed": "false",
        "bin": str(tmp_path / "runner-temp" / "correction-reader-bin"),
    }
    written = json.loads((context / "corrections.json").read_text(encoding="utf-8"))
    assert len(written["corrections"]) == 15
    # The prompt file: within the default budget, about the event's issue, with the corrections.
    prompt = (context / "prompt.md").read_text(encoding="utf-8")
    assert 4_000 < count_tokens(prompt) <= DEFAULT_MAX_TOKENS
    assert "The issue you are analysing now is #61" in prompt
    # Whole, but for a pointer at an excerpt the budget left out (taken away: test_pointers.py).
    shown = {int(n) for n in re.findall(r"^### Issue #(\d+)", prompt, re.MULTILINE)}
    corrections = pointing_only_at((context / "corrections.md").read_text(encoding="utf-8"), shown)
    assert corrections.split("\n", 1)[1] in prompt
    # The vocabulary of labels.md, so a later step can check a model's labels against it.
    assert written["vocabulary"][:3] == ["bug", "crash", "enhancement"]
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert f"{len(prompt):,} characters, {count_tokens(prompt):,} tokens (o200k_base)" in summary
    assert summary.replace(str(tmp_path), "$TMP") == snapshot(name="step-summary.md")
    captured = capsys.readouterr()
    # The token is masked first thing, and appears nowhere else.
    assert captured.out.splitlines()[0] == f"::add-mask::{TOKEN}"
    assert captured.out.count(TOKEN) == 1
    assert TOKEN not in captured.err + summary + (tmp_path / "output").read_text(encoding="utf-8")
    # Long output sits in log groups; warnings are workflow commands.
    assert "::group::Reading the corrections of octo/demo" in captured.out
    assert captured.out.count("::group::") == captured.out.count("::endgroup::") == 2
    assert "::warning title=corrections::#52 comment" in captured.out
    # The context is echoed with workflow commands stopped: a title cannot issue a command.
    lines = captured.out.splitlines()
    stop = next(line for line in lines if line.startswith("::stop-commands::"))
    assert f"::{stop.removeprefix('::stop-commands::')}::" in lines


def test_the_event_issue_ranks_the_lines_at_no_extra_request(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    context = tmp_path / "runner-temp" / "corrections-context"
    assert run_action(action_env(actions_demo, "workflow_dispatch", {"inputs": {}})) == 0
    newest = json.loads((context / "corrections.json").read_text(encoding="utf-8"))["corrections"]
    preview_requests = len(actions_demo.log())
    assert run_action(action_env(actions_demo, "issues", OPENED)) == 0
    ranked = json.loads((context / "corrections.json").read_text(encoding="utf-8"))["corrections"]
    # The payload carries the title and body: nothing more is asked of GitHub.
    assert len(actions_demo.log()) == 2 * preview_requests
    # The demo's Windows path issues (#51 paths over 260 characters, #44, #41) come first.
    assert [c["number"] for c in ranked][:3] == [51, 44, 41]
    assert sorted(c["number"] for c in ranked) == sorted(c["number"] for c in newest)
    assert [c["number"] for c in newest][:3] == [54, 51, 49]
    text = (context / "corrections.md").read_text(encoding="utf-8")
    assert "most similar to the issue you are analysing" in text
    assert "260 characters." not in text  # the analysed issue's text ranks, it is never shown
    capsys.readouterr()


def test_label_names_and_base_ref_inputs(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    environ = action_env(
        actions_demo, "issues", OPENED, max_analyzed="5", out=str(tmp_path / "ctx"), base_ref="feature-x"
    )
    assert run_action(environ) == 0
    out = outputs(tmp_path / "output")
    assert out["context"] == str(tmp_path / "ctx")
    assert out["window"] == "5"
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert "from `feature-x`" in summary
    assert "Window: 5 of at most 5 issues" in summary
    capsys.readouterr()


@pytest.mark.parametrize(
    ("event_name", "payload", "trigger"),
    [
        ("issue_comment", {"action": "created", "issue": {"number": 60}}, "issue_comment.created"),
        ("issues", {"action": "edited", "issue": {"number": 60}}, "issues.edited"),
        ("issues", {"action": "reopened", "issue": {"number": 60}}, "issues.reopened"),
    ],
)
def test_follow_up_is_a_no_op(  # noqa: PLR0917 - pytest fixtures
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    snapshot: SnapshotAssertion,
    event_name: str,
    payload: dict[str, Any],
    trigger: str,
) -> None:
    assert run_action(action_env(actions_demo, event_name, payload)) == 0
    assert actions_demo.log() == []  # nothing was asked of GitHub
    out = outputs(tmp_path / "output")
    assert out["skipped"] == "true"
    assert out["mode"] == "follow-up"
    assert out["context"] == ""
    assert out["prompt-file"] == ""
    assert out["github-failed"] == "false"
    # No context folder: only the commands for later steps are written under RUNNER_TEMP.
    assert [p.name for p in (tmp_path / "runner-temp").iterdir()] == ["correction-reader-bin"]
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert f"`{trigger}`" in summary
    if event_name == "issue_comment":
        assert summary == snapshot(name="step-summary-follow-up.md")
    capsys.readouterr()


def test_a_scheduled_run_is_not_called_a_follow_up_analysis(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Before: "This run was triggered by `schedule`: a follow-up analysis".
    assert run_action(action_env(actions_demo, "schedule", {})) == 0
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert "follow-up" not in summary
    assert "`schedule`, which is no analysis of an issue: nothing is read" in summary
    assert "`mode: commands`" in summary
    capsys.readouterr()


@pytest.mark.parametrize("event_name", ["schedule", "issues", "workflow_dispatch"])
def test_mode_commands_only_sets_up_the_commands(  # noqa: PLR0917 - pytest fixtures
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    event_name: str,
) -> None:
    environ = action_env(actions_demo, event_name, OPENED if event_name == "issues" else {}, mode="commands")
    assert run_action(environ) == 0
    assert actions_demo.log() == []  # nothing was asked of GitHub, whatever the event
    out = outputs(tmp_path / "output")
    assert (out["mode"], out["skipped"], out["context"]) == ("commands", "true", "")
    assert (Path(out["bin"]) / "corrections").is_file() and (Path(out["bin"]) / "learnings").is_file()
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert summary.startswith("## Correction reader: commands set up\n")
    assert "follow-up" not in summary and "Corrections: not read" not in summary
    capsys.readouterr()


def test_an_unknown_mode_is_a_usage_error(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_action(action_env(actions_demo, "issues", OPENED, mode="everything")) == 2
    assert "input mode: expected `commands` or nothing, got 'everything'" in capsys.readouterr().out


def test_workflow_dispatch_is_a_preview(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_action(action_env(actions_demo, "workflow_dispatch", {"inputs": {}})) == 0
    assert outputs(tmp_path / "output")["mode"] == "preview"
    assert "Corrections read (preview, no issue)" in (tmp_path / "summary").read_text(encoding="utf-8")
    capsys.readouterr()


def test_a_failing_github_never_fails_the_step(  # noqa: PLR0917 - pytest fixtures
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    snapshot: SnapshotAssertion,
) -> None:
    actions_demo.set_faults([{"kind": "bad_credentials", "times": None}])
    assert run_action(action_env(actions_demo, "issues", OPENED)) == 0
    out = outputs(tmp_path / "output")
    assert out["github-failed"] == "true"
    assert out["corrected"] == "0"
    assert "could not be read" in (Path(out["context"]) / "corrections.md").read_text(encoding="utf-8")
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert summary == snapshot(name="step-summary-failed.md")
    captured = capsys.readouterr()
    # One warning, with a hint about the token, not two near-duplicates.
    (warning,) = [line for line in captured.out.splitlines() if line.startswith("::warning")]
    assert warning.startswith(
        "::warning title=corrections::Corrections could not be read from GitHub (bad credentials)"
    )
    assert "check that the action's `token` input holds a token" in warning
    assert "::error" not in captured.out
    assert captured.out.count(TOKEN) == 1


@pytest.mark.parametrize("strict", ["false", "true"])
def test_an_internal_error_never_blames_github(  # noqa: PLR0917 - pytest fixtures
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    strict: str,
) -> None:
    """A bug of the reader said "Corrections could not be read from GitHub (internal error)"."""

    async def broken(*_args: object, **_keys: object) -> None:
        raise RuntimeError("a bug of the reader")

    monkeypatch.setattr("corrections.read.round_trips.read_corrections", broken)
    status = run_action(action_env(actions_demo, "issues", OPENED, fail_on_error=strict))
    out = outputs(tmp_path / "output")
    assert out["github-failed"] == "false"
    said = (Path(out["context"]) / "corrections.md").read_text(encoding="utf-8")
    assert "internal error" in said
    assert "GitHub (" not in said
    captured = capsys.readouterr().out
    (warning,) = [line for line in captured.splitlines() if line.startswith("::warning")]
    assert "internal error" in warning
    assert "from GitHub" not in warning
    assert "not GitHub's" in warning
    errors = [line for line in captured.splitlines() if line.startswith("::error")]
    assert status == len(errors) == (1 if strict == "true" else 0)
    assert all("GitHub failed" not in line for line in errors)


@pytest.mark.parametrize(
    ("faults", "status"),
    [
        ([{"kind": "bad_credentials", "times": None}], 1),
        ([], 0),
    ],
)
def test_fail_on_error_fails_the_step_only_when_github_failed(  # noqa: PLR0917 - pytest fixtures
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    faults: list[dict[str, Any]],
    status: int,
) -> None:
    actions_demo.set_faults(faults)
    assert run_action(action_env(actions_demo, "issues", OPENED, fail_on_error="true")) == status
    out = outputs(tmp_path / "output")
    # The context and the outputs are written before the step fails: nothing is lost.
    assert (Path(out["context"]) / "corrections.md").is_file()
    assert out["github-failed"] == ("true" if status else "false")
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error")]
    assert len(errors) == status


def test_fail_on_error_accepts_only_true_or_false(
    actions_demo: Any, action_env: Callable[..., dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_action(action_env(actions_demo, "issues", OPENED, fail_on_error="yes")) == 2
    assert "input fail-on-error: expected true or false" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"max_analyzed": "many"}, "input max-analyzed: expected a whole number"),
        ({"max_analyzed": "500"}, "must be between 0 and 100"),
        ({"token": ""}, "input token is empty"),
        ({"prompt_max_chars": "lots"}, "input prompt-max-chars: expected a whole number"),
        ({"prompt_max_chars": "0"}, "input prompt-max-chars: must be a positive number"),
        ({"prompt_max_tokens": "many"}, "input prompt-max-tokens: expected a whole number"),
        ({"prompt_max_tokens": "-1"}, "input prompt-max-tokens: must be a positive number"),
    ],
)
def test_bad_inputs_fail_with_one_error(  # noqa: PLR0917 - pytest fixtures
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    inputs: dict[str, str],
    message: str,
) -> None:
    environ = action_env(actions_demo, "issues", OPENED, **inputs)
    environ.pop("GITHUB_TOKEN", None)
    assert run_action(environ) == 2
    captured = capsys.readouterr()
    errors = [line for line in captured.out.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and message in errors[0]
    assert actions_demo.log() == []


def test_off_reads_nothing(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_action(action_env(actions_demo, "issues", OPENED, max_analyzed="0")) == 0
    assert actions_demo.log() == []
    out = outputs(tmp_path / "output")
    assert (out["window"], out["requests"], out["github-failed"]) == ("0", "0", "false")
    assert "Corrections are off" in (tmp_path / "summary").read_text(encoding="utf-8")
    capsys.readouterr()


def test_prompt_max_chars_input_bounds_the_prompt_file(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    environ = action_env(actions_demo, "issues", OPENED, prompt_max_chars="9000")
    assert run_action(environ) == 0
    prompt = Path(outputs(tmp_path / "output")["prompt-file"]).read_text(encoding="utf-8")
    assert len(prompt) <= 9_000
    assert "Left out to fit the prompt's budget:" in prompt
    assert "budget 9,000 characters" in (tmp_path / "summary").read_text(encoding="utf-8")
    capsys.readouterr()


def test_prompt_max_tokens_is_a_hard_cap_of_the_prompt_file(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_action(action_env(actions_demo, "issues", OPENED, prompt_max_tokens="3000")) == 0
    prompt = Path(outputs(tmp_path / "output")["prompt-file"]).read_text(encoding="utf-8")
    assert 2_000 < count_tokens(prompt) <= 3_000
    capsys.readouterr()
    # Under the fixed parts alone: no prompt file (the cap holds), a warning, the step goes on.
    assert run_action(action_env(actions_demo, "issues", OPENED, prompt_max_tokens="100")) == 0
    out = outputs(tmp_path / "output")
    assert out["prompt-file"] == ""
    assert not (Path(out["context"]) / "prompt.md").exists()
    assert "no prompt file: its fixed parts" in capsys.readouterr().out


def test_failed_read_still_gives_a_prompt_file_with_the_note(
    actions_demo: Any,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    actions_demo.set_faults([{"kind": "bad_credentials", "times": None}])
    assert run_action(action_env(actions_demo, "issues", OPENED)) == 0
    prompt = Path(outputs(tmp_path / "output")["prompt-file"]).read_text(encoding="utf-8")
    assert "could not be read" in prompt
    assert "No issue was read, so no excerpt follows." in prompt
    capsys.readouterr()


def test_the_bin_output_runs_this_action_s_commands_in_later_steps(
    actions_demo: Any, action_env: Callable[..., dict[str, str]], outputs: Outputs, tmp_path: Path
) -> None:
    """A later step runs `"$BIN/corrections"` and `"$BIN/learnings"`: the reader's interpreter and code."""
    for event, payload in (("issues", OPENED), ("issue_comment", {"action": "created"})):
        assert run_action(action_env(actions_demo, event, payload)) == 0
        folder = Path(outputs(tmp_path / "output")["bin"])
        for name in ("corrections", "learnings"):
            done = subprocess.run(
                [str(folder / name), "--help"],
                capture_output=True,
                text=True,
                check=False,
                cwd=tmp_path,
                env={"PATH": "/usr/bin:/bin"},
            )
            assert done.returncode == 0, done.stderr
            assert done.stdout.startswith(f"usage: {name}")


def test_action_yml_passes_fail_on_error_to_the_read_step() -> None:
    text = (Path(__file__).resolve().parents[2] / "action.yml").read_text(encoding="utf-8")
    inputs = text.split("\ninputs:\n", 1)[1].split("\noutputs:\n", 1)[0]
    assert "\n  fail-on-error:\n" in inputs and 'default: "false"' in inputs.split("fail-on-error:", 1)[1]
    assert "INPUT_FAIL_ON_ERROR: ${{ inputs.fail-on-error }}" in text


@pytest.mark.parametrize("answer", ["timeout_200", "timeout_502", "resource_limits"])
def test_a_query_too_big_for_github_is_shrunk_and_the_summary_says_so(  # noqa: PLR0917 - pytest fixtures
    answer: str,
    action_env: Callable[..., dict[str, str]],
    outputs: Outputs,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    snapshot: SnapshotAssertion,
    emulate: Emulators,
) -> None:
    """GitHub's timeout (200 or 502) or resource limits on the full first page (server-time model)."""
    server = emulate(DEMO, rate_limit=GITHUB_TOKEN_BUDGET, server_time={"ms_per_node": 1, "answer": answer})
    assert run_action(action_env(server, "issues", OPENED)) == 0
    served = server.log()
    out = outputs(tmp_path / "output")
    # The same corrections as without the refusal; the refused query's point is charged too, and
    # counted by the reader only where the refusal reports it (resource limits keep `rateLimit`).
    # 13 in the window; 2 more from the horizon past it when the halved first page holds them
    # (the horizon's page is not asked once GitHub could not answer full pages).
    assert (out["github-failed"], out["window"]) == ("false", "30") and out["corrected"] in ("13", "15")
    reported = [
        e for e in served if not e.get("timed_out") or answer == "resource_limits"
    ]  # REST: no timed_out
    assert out["points"] == str(sum(entry.get("cost") or 0 for entry in reported))
    assert out["remaining"] == str(1000 - sum(entry.get("cost") or 0 for entry in served))
    context = Path(out["context"])
    written = json.loads((context / "corrections.json").read_text(encoding="utf-8"))
    assert written["cost"]["pages_shrunk_to"] == {"issues": 50, "timeline_items": 50}
    summary = (tmp_path / "summary").read_text(encoding="utf-8")
    assert "reading asked for smaller pages, 50 issues with 50 timeline items each" in summary
    if answer == "timeout_200":
        assert summary.replace(str(tmp_path), "$TMP") == snapshot(name="step-summary-shrunk.md")
    log = capsys.readouterr().out
    assert "GitHub could not answer a scan page of 100 issues with 100 timeline items each" in log
