"""Renderers: pure functions from the run's outcome to the text of each file.

Untrusted text is cleaned and JSON-quoted here, before a template sees it, and fenced with a
fence longer than any backtick run inside.
"""

from __future__ import annotations

import json
from datetime import UTC
from typing import Any

from assistant.untrusted import clean_block, clean_line, fence_for, json_text, truncate
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.read.status import Failed, Off
from corrections.render.collapse import CorrectionLine, collapse
from corrections.render.excerpt_events import ANALYSIS_BY, chatter_note, is_chatter, without_marker
from corrections.render.issue_file import IssueExcerpt, head_lines
from corrections.render.nearest import kept_nearest, ordered
from corrections.render.pointers import OTHERS, POINTER
from corrections.render.templating import render_template
from corrections.rules import duplicates, labels, thumbs
from corrections.rules.issue import analyses
from corrections.rules.labels import LabelNumbers, label_numbers
from corrections.rules.models import (
    Analysis,
    Closed,
    Comment,
    Event,
    Issue,
    IssueCorrection,
    LabelChange,
    Objector,
    Reopened,
)
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import MAX_DESCRIPTION

MAX_TITLE = 300
MAX_BODY = 4_000
MAX_COMMENT = 2_000
MAX_ITEMS = 80
MAX_LABEL = 100  # GitHub allows 50 characters in a label name
MAX_LOGIN = 100  # GitHub allows 39

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


def correction_date(correction: IssueCorrection) -> str | None:
    """YYYY-MM-DD (UTC) of the latest correcting event, None when GitHub did not say when."""
    moment = correction.corrected_at
    return None if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%d")


def _label_name(name: str) -> str:
    return bounded_line(name, MAX_LABEL)


def correction_parts(correction: IssueCorrection, *, where: bool = True) -> list[str]:
    """What the rules found, in each rule's words; `where` says which file holds an objection's reason.

    A duplicate objection or a 👎 has its reason (the objecting comment, the reactor's words) in
    the issue's file only, so a prompt assembler knows where to look.
    """
    pointer = POINTER.format(number=correction.number) if where else ""
    return [
        *labels.correction_words(correction, _label_name),
        *duplicates.correction_words(correction, pointer),
        *thumbs.correction_words(correction, pointer),
    ]


def correction_line(correction: IssueCorrection) -> str:
    """One line: number, title as JSON, date, then program words, vocabulary labels and issue numbers."""
    date = correction_date(correction) or "date unknown"
    return " | ".join(
        [f"#{correction.number} {safe_title(correction.title)}", date, *correction_parts(correction)]
    )


def decision_words(correction: IssueCorrection) -> tuple[str, ...]:
    """What a line decides, in the rules' words (no pointer to a reason): lines with the same
    words make the same decision and are collapsed (corrections/render/collapse.py)."""
    return tuple(correction_parts(correction, where=False))


def collapsed_line(line: CorrectionLine) -> str:
    """A line of corrections.md: one issue's as `correction_line` writes it, or a collapsed one:
    its nearest issue's number and title, the latest date of its issues, the decision's words
    (`removed` / `added` before the label names), then how many issues made it and the next
    nearest ones by number and title."""
    if not line.collapsed:
        return correction_line(line.lead)
    dates = [d for c in line.issues if (d := correction_date(c)) is not None]
    others = ", ".join(f"#{c.number} {safe_title(c.title)}" for c in line.examples[1:])
    return " | ".join(
        [
            f"#{line.lead.number} {safe_title(line.lead.title)}",
            max(dates) if dates else "date unknown",
            *correction_parts(line.lead),
            f"{OTHERS.removeprefix(' | ')}{len(line.issues)} issues, also {others}",
        ]
    )


def correction_lines(outcome: ReadOutcome) -> list[CorrectionLine]:
    """corrections.md's lines in order, those making the same decision collapsed into one."""
    return collapse(ordered(outcome), decision_words)


def kept_numbers(outcome: ReadOutcome) -> list[LabelNumbers]:
    """For each vocabulary label the window's analyses put forward: how often it was kept.

    The analyses are those the context learns from (the issue being analysed aside); the
    counting is the quality report's (`rules.labels.label_numbers`), so both say the same.
    """
    analyses = outcome.learned_from
    numbers = [label_numbers(name, analyses) for name in outcome.vocabulary.names]
    return [n for n in numbers if n.proposed]


def kept_line(read: IssueRead) -> str:
    """A kept analysis: number, title as JSON, date of the analysis, the labels it put forward
    (and its duplicate), which maintainers left as they were."""
    first = read.first
    assert first is not None
    moment = first.at.astimezone(UTC).strftime("%Y-%m-%d")
    said = "kept: labels " + ", ".join(_label_name(n) for n in first.labels)
    if first.duplicate_of is not None:
        said += f"; duplicate of #{first.duplicate_of}"
    return " | ".join([f"#{read.issue.number} {safe_title(read.issue.title)}", moment, said])


def label_lines(outcome: ReadOutcome) -> list[str]:
    """What each label means, as labels.md says: name and description as JSON strings (labels
    without a description are left out)."""
    return [
        f"{json_text(_label_name(name))}: {json_text(bounded_line(description, MAX_DESCRIPTION))}"
        for name, description in outcome.vocabulary.described()
        if description
    ]


def render_corrections_md(outcome: ReadOutcome) -> str:
    """corrections.md: fixed guidance, one line per corrected issue inside one fence, what was kept."""
    lines = [collapsed_line(line) for line in correction_lines(outcome)]
    kept = [
        "- " + labels.kept_words(n, json_text(bounded_line(n.label, MAX_LABEL)))
        for n in kept_numbers(outcome)
    ]
    return render_template(
        "corrections.md.j2",
        off=isinstance(outcome.status, Off),
        failed=isinstance(outcome.status, Failed),
        note=outcome.status.note,
        window_size=len(outcome.window),
        horizon=sum(1 for c in outcome.carried if c.is_corrected),
        corrected=len(outcome.corrected),
        found=bool(outcome.window or outcome.corrections),
        analyses=len(outcome.learned_from),
        nearest=outcome.analysed is not None and outcome.analysed.title is not None,
        lines=lines,
        fence=fence_for(lines),
        kept=kept,
        kept_analyses=(analyses := [kept_line(read) for read in kept_nearest(outcome)]),
        kept_fence=fence_for(analyses),
        labels=(meanings := label_lines(outcome)),
        labels_fence=fence_for(meanings),
    )


def kept_labels(correction: IssueCorrection) -> list[str]:
    """The labels its analysis put forward that maintainers did not remove."""
    removed = {name.casefold() for name in correction.labels_removed}
    return [name for name in correction.put_forward if name.casefold() not in removed]


def corrections_json(outcome: ReadOutcome, learnings: tuple[str, ...] = ()) -> str:
    """corrections.json: the same facts as corrections.md, machine-readable.

    `learnings`: the ids of the learnings learnings.md shows, for an analysis's receipt.
    """
    lines = correction_lines(outcome)
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
                # Put forward by its analysis and left by maintainers (the second look's vote).
                "labels_kept": sorted(bounded_line(n, MAX_LABEL) for n in kept_labels(c)),
                "duplicate": (
                    None
                    if (objection := c.objection) is None
                    else {
                        "of": objection.of,
                        "outcome": objection.outcome.value,
                        "by": (objection.by or Objector.OTHER).value,
                    }
                ),
                "thumbs_down": c.thumbs_down,
                "date": correction_date(c),
            }
            for c in ordered(outcome)
        ],
        # corrections.md's lines: each line's issues, nearest first (one, or a collapsed line's).
        "lines": [[c.number for c in line.issues] for line in lines],
        # The corrected issues older than the window, carried from the horizon past it.
        "horizon": [c.number for c in outcome.carried if c.is_corrected],
        "kept": {
            bounded_line(n.label, MAX_LABEL): {"proposed": n.proposed, "kept": n.kept}
            for n in kept_numbers(outcome)
        },
        "note": outcome.status.note,
        "cost": _cost(outcome),
        "vocabulary": [bounded_line(name, MAX_LABEL) for name in outcome.vocabulary.names],
        # The same labels with what labels.md says each means ("" when it says nothing).
        "labels": [
            {"name": bounded_line(name, MAX_LABEL), "description": bounded_line(text, MAX_DESCRIPTION)}
            for name, text in outcome.vocabulary.described()
        ],
        # The kept analyses corrections.md shows, nearest first (issue numbers).
        "kept_analyses": [read.issue.number for read in kept_nearest(outcome)],
        "learnings": list(learnings),
        # `[assistant] second_look`: whether `corrections answer` takes its second look.
        "second_look": outcome.config.assistant.second_look,
    }
    if outcome.as_of is not None:
        # A context as of a past moment (`--as-of`): events from then on were left out.
        document["as_of"] = outcome.as_of.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
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
    return "Correction: " + " | ".join(correction_parts(correction, where=False)) + "."


def _analysis_line(at: str, event: Comment, analysis: Analysis, words: str) -> str:
    """An analysis as what its marker says: its labels (JSON strings) and its duplicate, then
    `words`, the comment's text without the marker (corrections/render/excerpt_events.py)."""
    said = "labels " + (", ".join(json_text(_label_name(n)) for n in analysis.labels) or "none")
    if analysis.duplicate_of is not None:
        said += f"; duplicate of #{analysis.duplicate_of}"
    text = json_text(bounded_block(words, MAX_COMMENT))
    kind = ANALYSIS_BY[0] if analysis.kind == "first" else ANALYSIS_BY[1]
    return f"{at} {kind}{_who(event.author.login if event.author else None)}: {said}; text: {text}"


def _event_line(
    event: Event, close_reason: str | None = None, analysis: tuple[Analysis, str] | None = None
) -> str:
    """One timeline item in program words; untrusted text (comment bodies) JSON-quoted.

    `close_reason`: the issue's own state reason, for the close that still stands; `analysis`:
    the analysis this comment is and its text without the marker, shown as what it says.
    """
    moment = event.at  # formatted by hand: strftime was a tenth of the render step
    at = f"{moment.year:04}-{moment.month:02}-{moment.day:02}T{moment.hour:02}:{moment.minute:02}:{moment.second:02}Z"
    if isinstance(event, Comment) and analysis is not None:
        return _analysis_line(at, event, *analysis)
    if isinstance(event, Comment):
        text = json_text(bounded_block(event.body, MAX_COMMENT))
        return f"{at} comment by {_who(event.author.login if event.author else None)}: {text}"
    who = _who(event.actor.login if event.actor else None)
    if isinstance(event, LabelChange):
        verb = "added label" if event.kind == "labeled" else "removed label"
        return f"{at} {who} {verb} {json_text(bounded_line(event.label, MAX_LABEL))}"
    if isinstance(event, Closed):
        reason = close_reason or event.state_reason
        # Each close says its own reason (GitHub's ClosedEvent.stateReason, DUPLICATE included);
        # the close that stands takes the issue's; COMPLETED says nothing.
        said = f" as {reason}" if reason and reason != "COMPLETED" else ""
        of = f" of #{event.duplicate_of}" if reason == "DUPLICATE" and event.duplicate_of is not None else ""
        return f"{at} {who} closed the issue{said}{of}"
    if isinstance(event, Reopened):
        return f"{at} {who} reopened the issue"
    verb = "marked" if event.kind == "marked_as_duplicate" else "unmarked"
    return f"{at} {who} {verb} it as a duplicate of #{event.canonical}"


def _standing_close(issue: Issue) -> int | None:
    """The index of the close the issue's state still reflects (closed now, not reopened after it)."""
    if issue.state != "CLOSED" or not issue.timeline_complete:
        return None
    for index in range(len(issue.events) - 1, -1, -1):
        event = issue.events[index]
        if isinstance(event, Reopened):
            return None
        if isinstance(event, Closed):
            return index
    return None


def issue_excerpt(
    issue: Issue, correction: IssueCorrection | None, settings: RuleSettings | None = None
) -> IssueExcerpt:
    """The parts of issues/<number>.md: the issue and its timeline, untrusted values as JSON
    strings, and the program's summary.

    With the rules' `settings`, the bots' items are left out (a note counts them) and each
    analysis is shown as what it says (corrections/render/excerpt_events.py). A long timeline
    keeps its first and last items (where the analysis and the corrections are).
    """
    state = issue.state + (f" ({issue.state_reason})" if issue.state_reason else "")
    head = head_lines(
        safe_title(issue.title),
        _who(issue.author.login if issue.author else None),
        state,
        json_text(bounded_block(issue.body, MAX_BODY)),
    )
    events = issue.events
    standing = _standing_close(issue)
    found = {} if settings is None else {a.node_id: a for a in analyses(issue, settings)[0]}
    shown = [
        index
        for index, event in enumerate(events)
        if settings is None or not is_chatter(event, found, settings)
    ]

    def line(index: int) -> str:
        event = events[index]
        analysis = found.get(event.node_id) if isinstance(event, Comment) else None
        said = None
        if analysis is not None and settings is not None and isinstance(event, Comment):
            said = analysis, without_marker(event.body, issue.number, settings.assistant)
        return _event_line(event, issue.state_reason if index == standing else None, said)

    timeline: list[str] = []
    if len(shown) > MAX_ITEMS:
        half = MAX_ITEMS // 2
        cut = len(shown) - 2 * half
        timeline += [line(index) for index in shown[:half]]
        timeline.append(f"({cut} timeline items not shown)")
        timeline += [line(index) for index in shown[-half:]]
    else:
        timeline += [line(index) for index in shown]
    if len(shown) < len(events):
        timeline.append(chatter_note(len(events) - len(shown)))
    return IssueExcerpt(
        number=issue.number, head=head, timeline=tuple(timeline), summary=issue_summary(correction)
    )


def render_issue_md(issue: Issue, correction: IssueCorrection | None) -> str:
    """issues/<number>.md: the issue and its timeline in one fence, then the program's summary."""
    return issue_excerpt(issue, correction).text()
