"""The step of `corrections action` (corrections/commands/action.py), configured by the environment
GitHub Actions sets.

Reads GITHUB_REPOSITORY, GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_GRAPHQL_URL (or
GITHUB_API_URL), GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP and the INPUT_* variables that
action.yml passes through `env:`. Corrections are read for a first analysis (`issues` opened)
and for a preview (`workflow_dispatch`); every other event is a follow-up, and the step does
nothing there but say so. Exit 0 whenever the analysis can go on; 2 for bad inputs or config;
1 when GitHub failed and the input `fail-on-error` is `true`.

Light at import: the step sends its first request before pydantic and the renderers are loaded
(what follows the read is corrections/commands/action_report.py).
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.config import ASSISTANT_OVERRIDES, DEFAULT_PATH, ConfigError, Override, assistant_overrides
from assistant.files import UnsafePath
from commandline.event import EventError, read_event_payload
from commandline.notices import Notices, in_actions
from commandline.usage import UsageError
from commandline.workflow import append, command, mask, write_outputs
from corrections.commands.read_context import run_read
from corrections.read.analysed import AnalysedIssue
from corrections.read.options import ReadOptions, RemoteConfig, build_options
from corrections.render.prompt_budget import Budget, BudgetError
from queries.defaults import GITHUB_GRAPHQL_URL

FIRST_ANALYSIS = "first-analysis"
PREVIEW = "preview"
FOLLOW_UP = "follow-up"
# The input `mode: commands`: the step only sets up the commands for the job's later steps.
COMMANDS = "commands"
# The events of an issue's life: on any other (schedule, push, ...) there is no analysis at all.
_ISSUE_EVENTS = frozenset({"issues", "issue_comment"})


@dataclass(frozen=True)
class Trigger:
    """Why the workflow runs: the event, the issue, and whether corrections are read."""

    event: str  # e.g. "issues.opened"
    mode: str  # FIRST_ANALYSIS, PREVIEW or FOLLOW_UP
    issue: int | None
    default_branch: str | None
    # The event's issue with its title and body (which only rank the corrections, nearest first).
    analysed: AnalysedIssue | None = None


def classify(event_name: str, payload: Mapping[str, Any]) -> Trigger:
    """First analysis on `issues` opened, preview on `workflow_dispatch`, follow-up otherwise.

    A follow-up analysis (a comment that asks the assistant again, an edited issue) does not read
    corrections (docs/rules.md, "Follow-ups").
    """
    action = payload.get("action")
    event = f"{event_name}.{action}" if isinstance(action, str) and action else event_name
    issue = payload.get("issue")
    number = issue.get("number") if isinstance(issue, dict) else None
    repository = payload.get("repository")
    branch = repository.get("default_branch") if isinstance(repository, dict) else None
    if event_name == "issues" and action == "opened":
        mode = FIRST_ANALYSIS
    elif event_name == "workflow_dispatch":
        mode = PREVIEW
    else:
        mode = FOLLOW_UP
    analysed = None
    if isinstance(issue, dict) and isinstance(number, int) and not isinstance(number, bool):
        title, body = issue.get("title"), issue.get("body")
        analysed = AnalysedIssue(
            number=number,
            title=title if isinstance(title, str) else None,
            body=body if isinstance(body, str) else "",
        )
    return Trigger(
        event=event,
        mode=mode,
        issue=number if isinstance(number, int) else None,
        default_branch=branch if isinstance(branch, str) and branch else None,
        analysed=analysed,
    )


def _path(environ: Mapping[str, str], name: str) -> Path | None:
    value = environ.get(name, "")
    return Path(value) if value else None


def _event_payload(environ: Mapping[str, str]) -> dict[str, Any]:
    path = _path(environ, "GITHUB_EVENT_PATH")
    if path is None:
        return {}
    try:
        payload = read_event_payload(path)
    except EventError as error:
        raise UsageError(f"GITHUB_EVENT_PATH: cannot read the event payload: {error}") from error
    return payload if isinstance(payload, dict) else {}


def api_url(environ: Mapping[str, str]) -> str:
    """GITHUB_GRAPHQL_URL, else GITHUB_API_URL + /graphql (GitHub Enterprise), else github.com's."""
    if environ.get("GITHUB_GRAPHQL_URL"):
        return environ["GITHUB_GRAPHQL_URL"]
    if environ.get("GITHUB_API_URL"):
        return environ["GITHUB_API_URL"].rstrip("/") + "/graphql"
    return GITHUB_GRAPHQL_URL


def fail_on_error(environ: Mapping[str, str]) -> bool:
    """The `fail-on-error` input: `true` makes a GitHub failure fail the step (default `false`)."""
    value = environ.get("INPUT_FAIL_ON_ERROR", "").strip().casefold()
    if value in {"", "false"}:
        return False
    if value == "true":
        return True
    raise UsageError(f"input fail-on-error: expected true or false, got {value!r}")


def _whole_number(name: str, value: str) -> int | None:
    if not value.strip():
        return None
    try:
        return int(value.strip())
    except ValueError as error:
        raise UsageError(f"input {name}: expected a whole number, got {value.strip()!r}") from error


def prompt_budget(environ: Mapping[str, str]) -> Budget:
    """The inputs prompt-max-tokens and prompt-max-chars; both empty means the default tokens."""
    tokens = _whole_number("prompt-max-tokens", environ.get("INPUT_PROMPT_MAX_TOKENS", ""))
    chars = _whole_number("prompt-max-chars", environ.get("INPUT_PROMPT_MAX_CHARS", ""))
    try:
        return Budget.of(tokens, chars, names=("input prompt-max-tokens", "input prompt-max-chars"))
    except BudgetError as error:
        raise UsageError(str(error)) from error


def overrides_from(environ: Mapping[str, str]) -> tuple[Override, ...]:
    """The inputs `assistant-login` and `assistant-account` that are not empty, as overrides."""
    given = {name: environ.get(f"INPUT_{name.upper().replace('-', '_')}") for name in ASSISTANT_OVERRIDES}
    return assistant_overrides(given, option=False)


def context_folder(environ: Mapping[str, str]) -> Path:
    """The input `out`, else RUNNER_TEMP/corrections-context: where the context folder goes."""
    out = environ.get("INPUT_OUT", "").strip()
    if not out:
        out = str(Path(environ.get("RUNNER_TEMP") or ".") / "corrections-context")
    return Path(out).resolve()


def read_options(environ: Mapping[str, str], trigger: Trigger) -> ReadOptions:
    """The read's options from the inputs; empty inputs take the defaults of docs/action.md."""
    repository = environ.get("GITHUB_REPOSITORY", "")
    if not repository:
        raise UsageError("GITHUB_REPOSITORY is not set: run this inside GitHub Actions")
    # The configuration is a path in the repository, read at the base ref through GitHub: the
    # workspace may hold a pull request's files and is never read.
    named = environ.get("INPUT_CONFIG", "").strip()
    return build_options(
        repo=repository,
        config_path=None,
        remote_config=RemoteConfig(named or str(DEFAULT_PATH), required=bool(named)),
        api_url=api_url(environ),
        max_analyzed=_whole_number("max-analyzed", environ.get("INPUT_MAX_ANALYZED", "")),
        base_ref=environ.get("INPUT_BASE_REF", "").strip() or trigger.default_branch,
        analysed=trigger.analysed,
        overrides=overrides_from(environ),
    )


def _say(line: str) -> None:
    print(line, flush=True)


def write_bin(runner_temp: Path | None) -> str:
    """A folder with `corrections` and `learnings` commands for the job's later steps; its path, or "".

    They run this very checkout of the action with the interpreter that runs this step, so a later
    step (`"$BIN/corrections" marker ...`, `"$BIN/learnings" sync ...`) uses the reader's version
    without installing anything.
    """
    if runner_temp is None:
        return ""
    root = Path(__file__).resolve().parents[2]  # the checkout: corrections/commands/action_step.py
    folder = runner_temp / "correction-reader-bin"
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("corrections", "learnings"):
        script = folder / name
        script.write_text(
            "#!/bin/sh\n"
            f"# The `{name}` command of the correction-reader action that wrote this file.\n"
            f'PYTHONPATH={shlex.quote(str(root))} exec {shlex.quote(sys.executable)} -P -m {name} "$@"\n',
            encoding="utf-8",
        )
        script.chmod(0o755)
    return str(folder)


def skipped_outputs(mode: str, bin_folder: str = "") -> list[tuple[str, str]]:
    """The step's outputs when nothing is read."""
    return [
        ("mode", mode),
        ("skipped", "true"),
        ("context", ""),
        ("prompt-file", ""),
        ("window", "0"),
        ("corrected", "0"),
        ("requests", "0"),
        ("points", "0"),
        ("remaining", ""),
        ("github-failed", "false"),
        ("bin", bin_folder),
    ]


def follow_up_reason(trigger: Trigger) -> str:
    """The fixed sentence of the summary when the step does nothing."""
    read_when = (
        "Corrections are read only for a first analysis (the `issues` event, type `opened`) and for "
        "a preview (`workflow_dispatch`)."
    )
    if trigger.event.split(".", 1)[0] in _ISSUE_EVENTS:
        return (
            f"This run was triggered by `{trigger.event}`: a follow-up analysis, which does not read "
            f"corrections. {read_when}"
        )
    return (
        f"This run was triggered by `{trigger.event}`, which is no analysis of an issue: nothing is "
        f"read. {read_when} A step that only needs the commands takes the input `mode: commands`."
    )


def requested_mode(environ: Mapping[str, str]) -> str:
    """The input mode: empty (by the event) or `commands`; UsageError for anything else."""
    value = environ.get("INPUT_MODE", "").strip()
    if value not in {"", COMMANDS}:
        raise UsageError(f"input mode: expected `commands` or nothing, got {value!r}")
    return value


def run_action(environ: Mapping[str, str]) -> int:
    """The whole step; returns the exit status."""
    output_path = _path(environ, "GITHUB_OUTPUT")
    summary_path = _path(environ, "GITHUB_STEP_SUMMARY")
    token = environ.get("INPUT_TOKEN", "") or environ.get("GITHUB_TOKEN", "")
    if token:
        _say(mask(token))  # before anything else is printed: the runner hides it from here on
    key = environ.get("ASSISTANT_MARKER_KEY", "").strip()
    if key:
        _say(mask(key))  # the marker key too: a seal can be made by whoever reads it
    try:
        if requested_mode(environ) == COMMANDS:
            bin_folder = write_bin(_path(environ, "RUNNER_TEMP"))
            _say(f"corrections: the commands are in {bin_folder} (mode: commands); nothing to read")
            write_outputs(output_path, skipped_outputs(COMMANDS, bin_folder))
            from corrections.commands.summary import render_commands

            append(summary_path, render_commands())
            return 0
        trigger = classify(environ.get("GITHUB_EVENT_NAME", ""), _event_payload(environ))
        if trigger.mode == FOLLOW_UP:
            _say(f"corrections: {trigger.event} is a follow-up: nothing to read")
            write_outputs(
                output_path, skipped_outputs(trigger.mode, write_bin(_path(environ, "RUNNER_TEMP")))
            )
            from corrections.commands.summary import render_skipped

            append(summary_path, render_skipped(trigger.event, follow_up_reason(trigger)))
            return 0
        options = read_options(environ, trigger)
        out = context_folder(environ)
        budget = prompt_budget(environ)
        strict = fail_on_error(environ)
        if not token and options.config.context.max_analyzed > 0:
            raise UsageError("input token is empty: pass a token (the default is the workflow's token)")
    except UsageError as error:
        _say(command("error", str(error), title="corrections"))
        append(summary_path, f"## Corrections: not read\n\nConfiguration error: {error}\n")
        return 2
    notices = Notices("corrections", actions=in_actions(environ))
    _say(f"::group::Reading the corrections of {options.owner}/{options.name}")
    try:
        paths = environ.get("INPUT_PATHS", "").split()
        done = run_read(options, token, out, paths=paths, log=_say, say=notices)
    except ConfigError as error:
        from corrections.commands.summary import code_span

        _say("::endgroup::")
        _say(command("error", str(error), title="corrections"))
        append(
            summary_path, f"## Corrections: not read\n\nConfiguration error: {code_span(str(error), 500)}\n"
        )
        return 2
    except UnsafePath as error:  # a link where a context file goes: nothing to give the model
        from corrections.commands.summary import code_span

        _say("::endgroup::")
        _say(command("error", str(error), title="corrections"))
        append(summary_path, f"## Corrections: not written\n\n{code_span(str(error), 500)}\n")
        return 1
    else:
        _say("::endgroup::")
    from corrections.commands.action_report import Finished, report_read

    step = Finished(
        event=trigger.event,
        issue=trigger.issue,
        mode=trigger.mode,
        budget=budget,
        strict=strict,
        bin_folder=write_bin(_path(environ, "RUNNER_TEMP")),
        output_path=output_path,
        summary_path=summary_path,
        out=out,
    )
    return report_read(done, options, step, notices)


def main() -> int:
    """The step, from the process environment."""
    status = run_action(os.environ)
    sys.stdout.flush()
    return status
