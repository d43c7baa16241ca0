"""`corrections action` after the read: the context shown in the log, prompt.md, the step's
outputs and its summary.

Apart from corrections/commands/action_step.py so that the step sends its first request before the prompt's and
the summary's code (pydantic, jinja2) is loaded.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from assistant.files import remove_file, write_files
from commandline.notices import Notices
from commandline.workflow import append, command, write_outputs
from corrections.commands.summary import RunFacts, render_summary
from corrections.read.options import ReadOptions
from corrections.read.outcome import ReadOutcome
from corrections.read.status import Failed, github_failed
from corrections.render.context import ContextFiles, ReadDone
from corrections.render.prompt import PROMPT_FILE, Prompt, assemble_prompt, context_of
from corrections.render.prompt_budget import Budget


def _say(line: str) -> None:
    print(line, flush=True)


@dataclass(frozen=True)
class Finished:
    """What the step knows besides the outcome when the read is done."""

    event: str
    issue: int | None
    mode: str
    budget: Budget
    strict: bool  # the input fail-on-error
    bin_folder: str
    output_path: Path | None
    summary_path: Path | None
    out: Path  # the context folder the read wrote


def report_read(done: ReadDone, options: ReadOptions, step: Finished, notices: Notices) -> int:
    """Show the context, write prompt.md, the outputs and the summary; the step's exit status."""
    outcome = done.outcome
    show_file("corrections.md (the context for the model)", done.files.top["corrections.md"])
    prompt = write_prompt(step.out, done.files, step.issue, step.budget, notices)
    write_outputs(step.output_path, outputs_of(outcome, step.out, step.mode, prompt, step.bin_folder))
    facts = RunFacts(
        trigger=step.event,
        issue=step.issue,
        base_ref=options.base_ref,
        out=str(step.out),
        max_analyzed=outcome.config.context.max_analyzed,
        labels_file=outcome.config.context.labels_file,
    )
    append(step.summary_path, render_summary(outcome, facts, prompt))
    status = outcome.status
    if step.strict and (github_failed(status) or isinstance(status, Failed)):
        what = "GitHub failed" if github_failed(status) else "The reader failed (an internal error)"
        _say(command("error", f"{what} and the input fail-on-error is true", title="corrections"))
        return 1
    return 0


def show_file(title: str, text: str) -> None:
    """A file in a collapsed log group, with workflow commands stopped (it quotes issue titles)."""
    token = secrets.token_hex(16)
    _say(f"::group::{title}")
    _say(f"::stop-commands::{token}")
    _say(text.rstrip("\n"))
    _say(f"::{token}::")
    _say("::endgroup::")


def write_prompt(
    folder: Path, files: ContextFiles, issue: int | None, budget: Budget, say: Notices
) -> Prompt | None:
    """prompt.md in the context folder, for the model, from the context files as they were
    rendered; None (and a warning) when it cannot fit the budget (a hard cap: the analysis goes on
    without the reader's prompt)."""
    prompt = assemble_prompt(context_of(files), issue=issue, budget=budget)
    if prompt.over_budget:
        say.warning(
            f"no prompt file: its fixed parts (guidance, corrections, learnings) alone take {prompt.size()}, "
            f"over the budget of {budget.describe()} (inputs prompt-max-tokens, prompt-max-chars)"
        )
        remove_file(folder, PROMPT_FILE)  # none from an earlier run stands in for it
        say.close()
        return None
    write_files(folder, {PROMPT_FILE: prompt.text})
    _say(f"corrections: wrote {folder / PROMPT_FILE}: {prompt.describe()}")
    say.close()
    return prompt


def outputs_of(
    outcome: ReadOutcome, out: Path, mode: str, prompt: Prompt | None, bin_folder: str = ""
) -> list[tuple[str, str]]:
    """The step's outputs after a read."""
    usage = outcome.usage
    return [
        ("mode", mode),
        ("skipped", "false"),
        ("context", str(out)),
        ("prompt-file", str(out / PROMPT_FILE) if prompt is not None else ""),
        ("window", str(len(outcome.window))),
        ("corrected", str(len(outcome.corrected))),
        ("requests", str(usage.requests)),
        ("points", str(usage.points)),
        ("remaining", "" if usage.remaining is None else str(usage.remaining)),
        (
            "github-failed",
            "true" if isinstance(outcome.status, Failed) and not outcome.status.internal else "false",
        ),
        ("bin", bin_folder),
    ]
