"""Renderers: pure functions from the run's outcome to the text of each file.

Untrusted text is cleaned and JSON-quoted here, before a template sees it, and fenced with a
fence longer than any backtick run inside.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from corrections.job import ReadOutcome
from corrections.models import (
    Closed,
    Comment,
    DuplicateOutcome,
    Event,
    Issue,
    IssueCorrection,
    LabelChange,
    Reopened,
)
from corrections.untrusted import clean_block, clean_line, fence_for, json_text, truncate

TEMPLATES = Path(__file__).resolve().parent / "templates"
MAX_TITLE = 300
MAX_BODY = 4_000
MAX_COMMENT = 2_000
MAX_ITEMS = 80
MAX_LABEL = 100  # GitHub allows 50 characters in a label name
MAX_LOGIN = 100  # GitHub allows 39

_environment = Environment(
    loader=FileSystemLoader(TEMPLATES),
    undefined=StrictUndefined,
    autoescape=False,  # noqa: S701 - Markdown, not HTML; untrusted text is quoted before it gets here.
    keep_trailing_newline=True,
)


# Untrusted text is cut to this many times its limit before it is cleaned, so a megabyte body
# costs no more than a short one; what cleaning removes beyond that is cut text anyway.
_PRE_CUT = 4


def bounded_line(text: str, limit: int) -> str:
    """`clean_line` then `truncate`, without cleaning more than a few times `limit` characters."""
    head = text[: limit * _PRE_CUT]
    cleaned = clean_line(head)
    if len(head) < len(text) and len(cleaned) <= limit:
        cleaned = cleaned[: limit - 1] + "…"
    return truncate(cleaned, limit)


def bounded_block(text: str, limit: int) -> str:
    """`clean_block` then `truncate`, without cleaning more than a few times `limit` characters."""
    head = text[: limit * _PRE_CUT]
    cleaned = clean_block(head)
    if len(head) < len(text) and len(cleaned) <= limit:
        cleaned = cleaned[: limit - 1] + "…"
    return truncate(cleaned, limit)


def safe_title(title: str) -> str:
    """A title as it may appear in a prompt: one line, no invisible characters, JSON-quoted."""
    return json_text(bounded_line(title, MAX_TITLE))


def correction_line(correction: IssueCorrection) -> str:
    """One line: number, title as JSON, then program words, vocabulary labels and issue numbers."""
    return " | ".join(
        [f"#{correction.number} {safe_title(correction.title)}", *_correction_parts(correction)]
    )


def _correction_parts(correction: IssueCorrection) -> list[str]:
    """What the rules found, in program words, vocabulary labels and numbers (no untrusted text)."""
    parts: list[str] = []
    if correction.labels_removed:
        parts.append(
            "maintainer removed label "
            + ", ".join(bounded_line(n, MAX_LABEL) for n in correction.labels_removed)
        )
    if correction.labels_added:
        parts.append(
            "maintainer added label " + ", ".join(bounded_line(n, MAX_LABEL) for n in correction.labels_added)
        )
    if correction.duplicate is not None and correction.duplicate.outcome is DuplicateOutcome.OBJECTED:
        parts.append(f"duplicate notice (of #{correction.duplicate.of}) objected to")
    if correction.thumbs_down:
        people = "person" if correction.thumbs_down == 1 else "people"
        parts.append(f"👎 from {correction.thumbs_down} {people} with push access")
    return parts


def render_corrections_md(outcome: ReadOutcome) -> str:
    """corrections.md: fixed guidance, then one line per corrected issue inside one fence."""
    lines = [correction_line(c) for c in outcome.corrected]
    return _environment.get_template("corrections.md.j2").render(
        off=outcome.off,
        failed=outcome.failed,
        note=outcome.note,
        window_size=len(outcome.window),
        lines=lines,
        fence=fence_for(lines),
    )


def corrections_json(outcome: ReadOutcome) -> str:
    """corrections.json: the same facts as corrections.md, machine-readable."""
    document = {
        "v": 1,
        "repository": outcome.repository,
        "window": [read.issue.number for read in outcome.window],
        "corrections": [
            {
                "number": c.number,
                "title": bounded_line(c.title, MAX_TITLE),
                "labels_removed": sorted(bounded_line(n, MAX_LABEL) for n in c.labels_removed),
                "labels_added": sorted(bounded_line(n, MAX_LABEL) for n in c.labels_added),
                "duplicate": (
                    {"of": c.duplicate.of, "outcome": c.duplicate.outcome.value}
                    if c.duplicate is not None and c.duplicate.outcome is DuplicateOutcome.OBJECTED
                    else None
                ),
                "thumbs_down": c.thumbs_down,
            }
            for c in outcome.corrected
        ],
        "note": outcome.note,
        "cost": _cost(outcome),
        "vocabulary": [bounded_line(name, MAX_LABEL) for name in outcome.vocabulary.names],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _cost(outcome: ReadOutcome) -> dict[str, Any]:
    """Requests and points; when GitHub could not answer full pages, the sizes the run shrank to."""
    cost: dict[str, Any] = {"requests": outcome.usage.requests, "points": outcome.usage.points}
    sizes = outcome.page_sizes
    if sizes.shrunk:
        cost["pages_shrunk_to"] = {"issues": sizes.issues, "timeline_items": sizes.timeline}
    return cost


def _who(login: str | None) -> str:
    return json_text(bounded_line(login, MAX_LOGIN) if login else "ghost")


def issue_summary(correction: IssueCorrection | None) -> str:
    """The program's words on what the rules found on this issue."""
    if correction is None or not correction.is_corrected:
        return "Correction: none (the first analysis stood as it was)."
    return "Correction: " + " | ".join(_correction_parts(correction)) + "."


def _event_line(event: Event) -> str:
    """One timeline item in program words; untrusted text (comment bodies) JSON-quoted."""
    at = event.at.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(event, Comment):
        text = json_text(bounded_block(event.body, MAX_COMMENT))
        return f"{at} comment by {_who(event.author.login if event.author else None)}: {text}"
    who = _who(event.actor.login if event.actor else None)
    if isinstance(event, LabelChange):
        verb = "added label" if event.kind == "labeled" else "removed label"
        return f"{at} {who} {verb} {json_text(bounded_line(event.label, MAX_LABEL))}"
    if isinstance(event, Closed):
        return f"{at} {who} closed the issue" + (f" as {event.state_reason}" if event.state_reason else "")
    if isinstance(event, Reopened):
        return f"{at} {who} reopened the issue"
    verb = "marked" if event.kind == "marked_as_duplicate" else "unmarked"
    return f"{at} {who} {verb} it as a duplicate of #{event.canonical}"


def render_issue_md(issue: Issue, correction: IssueCorrection | None) -> str:
    """issues/<number>.md: the issue and its timeline; untrusted values as JSON strings in one fence.

    A long timeline keeps its first and last items (where the analysis and the corrections are).
    """
    lines = [
        f"title: {safe_title(issue.title)}",
        f"author: {_who(issue.author.login if issue.author else None)}",
        f"state: {issue.state}" + (f" ({issue.state_reason})" if issue.state_reason else ""),
        f"body: {json_text(bounded_block(issue.body, MAX_BODY))}",
    ]
    events = issue.events
    if len(events) > MAX_ITEMS:
        half = MAX_ITEMS // 2
        cut = len(events) - 2 * half
        lines += [_event_line(event) for event in events[:half]]
        lines.append(f"({cut} timeline items not shown)")
        lines += [_event_line(event) for event in events[-half:]]
    else:
        lines += [_event_line(event) for event in events]
    return _environment.get_template("issue.md.j2").render(
        number=issue.number, lines=lines, fence=fence_for(lines), summary=issue_summary(correction)
    )
