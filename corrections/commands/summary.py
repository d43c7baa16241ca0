"""The step summary ($GITHUB_STEP_SUMMARY) a maintainer reads after each run of the action (pure).

Untrusted text (titles) is cleaned and every ASCII punctuation character backslash-escaped, so a
title renders as plain text: no link, image, HTML, table cell break or heading.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.templating import markdown_environment
from assistant.untrusted import clean_line, escape_markdown, inline_code, truncate
from corrections.quality.numbers import RecurrenceNumbers, month_of
from corrections.quality.repeats import month_numbers, outcome_repeats
from corrections.read.outcome import ReadOutcome
from corrections.read.status import Complete, Failed, Off, Partial
from corrections.render.prompt import PROMPT_FILE, Prompt
from corrections.render.templating import TEMPLATES
from corrections.rules.duplicates import objected_by
from corrections.rules.models import IssueCorrection

MAX_SUMMARY_TITLE = 80
MAX_WINDOW_SHOWN = 100

# The step summary is the action's; its template lives with the other templates.
_environment = markdown_environment(TEMPLATES, trim_blocks=True, lstrip_blocks=True)


def markdown_text(text: str, limit: int = MAX_SUMMARY_TITLE) -> str:
    """Untrusted text as inert Markdown: one line, invisible characters gone, punctuation escaped."""
    return escape_markdown(truncate(clean_line(text), limit))


def code_span(text: str, limit: int = 200) -> str:
    """Text as an inert Markdown code span: one line, invisible characters gone, and delimited by
    more backticks than any run inside it (CommonMark), so no value can close it early."""
    return inline_code(truncate(clean_line(text), limit))


def _code(name: str) -> str:
    """A label name as inline code (labels come from the base branch's labels.md)."""
    cleaned = clean_line(name).replace("`", "'").replace("|", "/")
    return f"`{cleaned}`"


@dataclass(frozen=True)
class RunFacts:
    """What the action knows beside the outcome: why it ran and where it wrote."""

    trigger: str  # e.g. "issues.opened"
    issue: int | None
    base_ref: str
    out: str
    max_analyzed: int
    labels_file: str


@dataclass(frozen=True)
class CorrectionRow:
    """One row of the table of corrections that went into the context."""

    number: int
    title: str
    removed: str
    added: str
    duplicate: str
    thumbs_down: str


def _row(correction: IssueCorrection) -> CorrectionRow:
    objection = correction.objection
    duplicate = "" if objection is None else f"of #{objection.of}, {objected_by(objection)}"
    return CorrectionRow(
        number=correction.number,
        title=markdown_text(correction.title),
        removed=", ".join(_code(name) for name in correction.labels_removed),
        added=", ".join(_code(name) for name in correction.labels_added),
        duplicate=duplicate,
        thumbs_down=str(correction.thumbs_down) if correction.thumbs_down else "",
    )


def _issues(numbers: list[int]) -> str:
    shown = ", ".join(f"#{n}" for n in numbers[:MAX_WINDOW_SHOWN])
    more = len(numbers) - MAX_WINDOW_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


@dataclass(frozen=True)
class MonthRepeats:
    """The repeats of the latest month among the window's first analyses (the step reads no more)."""

    month: str
    numbers: RecurrenceNumbers


def last_month_repeats(outcome: ReadOutcome) -> MonthRepeats | None:
    """The latest month's repeats, counted from this run's window only; None without analyses."""
    if not isinstance(outcome.status, Complete | Partial) or not outcome.window:
        return None
    window = outcome.config.context.max_analyzed
    found = outcome_repeats(outcome, outcome.settings, window=window, read_with=window)
    if not found:
        return None
    last = max(month_of(item.at) for item in found)
    return MonthRepeats(last, month_numbers(item for item in found if month_of(item.at) == last))


def render_summary(outcome: ReadOutcome, facts: RunFacts, prompt: Prompt | None = None) -> str:
    """The step summary of a run that read (or tried to read) corrections, and of its prompt file."""
    usage = outcome.usage
    window = [read.issue.number for read in outcome.window]
    # The corrected issues counted apart: the window's, then the horizon's past it.
    in_window = set(window)
    past_window = [c.number for c in outcome.corrected if c.number not in in_window]
    if facts.issue is None:
        heading = "Corrections read (preview, no issue)"
    else:
        heading = f"Corrections for the first analysis of #{facts.issue}"
    return _environment.get_template("step-summary.md.j2").render(
        heading=heading,
        repository=code_span(outcome.repository),
        facts=facts,
        base_ref=code_span(facts.base_ref),
        labels_file=code_span(facts.labels_file),
        out=code_span(facts.out, 1_000),
        trigger=code_span(facts.trigger),
        off=isinstance(outcome.status, Off),
        failed=isinstance(outcome.status, Failed),
        note=outcome.status.note,
        window=window,
        window_text=_issues(window),
        assistant=code_span(outcome.config.assistant.login),
        corrected=sum(c.number in in_window for c in outcome.corrected),
        horizon=past_window,
        horizon_text=_issues(past_window),
        vocabulary=len(outcome.vocabulary.names),
        rows=[_row(c) for c in outcome.corrected],
        graphql=usage.graphql_requests,
        rest=usage.rest_requests,
        retries=usage.retries,
        points=usage.points,
        remaining="not reported" if usage.remaining is None else f"{usage.remaining:,}",
        shrunk=outcome.page_sizes.describe() if outcome.page_sizes.shrunk else None,
        warnings=[markdown_text(w, 300) for w in outcome.warnings],
        prompt_file=PROMPT_FILE,
        prompt=prompt.describe() if prompt is not None else None,
        repeats=last_month_repeats(outcome),
    )


def render_commands() -> str:
    """The step summary of `mode: commands`: the commands were set up, nothing was read."""
    return (
        "## Correction reader: commands set up\n\n"
        "The `corrections` and `learnings` commands are in the folder of the step's output `bin` "
        "(input `mode: commands`). Nothing was read from GitHub; the job's later steps say what "
        "they did.\n"
    )


def render_skipped(trigger: str, reason: str) -> str:
    """The step summary of a run that read nothing on purpose (a follow-up analysis)."""
    return _environment.get_template("step-summary-skipped.md.j2").render(
        trigger=code_span(trigger), reason=reason
    )
