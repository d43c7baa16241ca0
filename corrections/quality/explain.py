"""Why the assistant learned (or did not learn) something from one issue: its trail, in words (pure).

`explain` answers a maintainer's "why did the assistant learn that?" from the same rules that
build the context: every event on a label after the first analysis, who made it and whether it
counts, the duplicate notice's outcome and the 👎 that counted, ending with the correction (or
the reason there is none). It only puts the rules' trace (`rules.trace`) into words: every outcome
and the event that decided it come from there, so explain cannot disagree with the context or the
quality numbers. Untrusted text appears only as JSON strings or cleaned names.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from assistant.identity import is_assistant, normalize_login
from assistant.untrusted import clean_line
from corrections.quality.repeats import AnalysisRepeats
from corrections.read.notes import PARTS, Part
from corrections.render.files import correction_line, objected_by, safe_title
from corrections.rules.issue import Permissions, RuleSettings, analyses, trace
from corrections.rules.markers import has_analysis_marker
from corrections.rules.models import (
    Actor,
    Analysis,
    Comment,
    DuplicateMark,
    DuplicateOutcome,
    Issue,
    LabelChange,
    Objector,
    Reaction,
)
from corrections.rules.trace import (
    DuplicateRole,
    DuplicateStep,
    IssueTrace,
    LabelOutcome,
    LabelReason,
    LabelRole,
    ThumbRole,
)


@dataclass(frozen=True)
class TrailFacts:
    """What the reading could not give: a cut timeline, parts missing (👎 not read: `reactors` None)."""

    truncated: bool = False
    missing: Collection[Part] = ()


def _when(event: Comment | LabelChange | DuplicateMark | Analysis) -> str:
    return event.at.strftime("%Y-%m-%d %H:%M")


def _who(actor: Actor | None, permissions: Permissions) -> str:
    if actor is None:
        return "a deleted account (ghost)"
    name = actor.login.replace("\n", " ").strip()
    if actor.typename != "User":
        return f"{name} ({actor.typename})"
    level = permissions.get(normalize_login(actor.login))
    return f"{name} ({level.value if level else 'permission not read'})"


def _label(name: str) -> str:
    """A label name as a code span for the terminal: a stranger's text, so cleaned (no escape, no
    control or bidi character reaches the screen) and without backticks."""
    return "`" + clean_line(name).replace("`", "'") + "`"


def _no_first_analysis(issue: Issue, settings: RuleSettings, facts: TrailFacts) -> list[str]:
    found, warnings = analyses(issue, settings)
    lines = [f"No correction: #{issue.number} has no first analysis, so nothing on it is learned."]
    follow_ups = [a for a in found if a.kind == "follow-up"]
    if follow_ups:
        lines.append(
            f"- {len(follow_ups)} analysis of kind follow-up found; only a first analysis is learned from."
        )
    lines += [f"- {warning} (docs/rules.md: a marker that does not parse is ignored)" for warning in warnings]
    for event in issue.events:
        if (
            isinstance(event, Comment)
            and has_analysis_marker(event)
            and not is_assistant(event.author, settings.assistant)
        ):
            who = f"{event.author.login} ({event.author.typename})" if event.author else "ghost"
            assistant = f"{settings.assistant.login} ({settings.assistant.account})"
            lines.append(
                f"- comment {event.database_id or event.node_id} by {who} carries an analysis marker, but "
                f"only the assistant ({assistant}) writes analyses: ignored"
            )
    if not found and not warnings and len(lines) == 1:
        lines.append(f"- no comment by {settings.assistant.login} carries an analysis marker")
    if facts.truncated:
        lines.append("- the timeline is longer than a run reads: a first analysis further on was not seen")
    return lines


_VERDICTS = {
    (LabelOutcome.REMOVED, LabelReason.REMOVED): (
        "learned: a maintainer removed this label (the last change by a person removed it)"
    ),
    (LabelOutcome.ADDED, LabelReason.ADDED): (
        "learned: a maintainer added this label (the assistant had not put it forward)"
    ),
    (LabelOutcome.KEPT, LabelReason.UNTOUCHED): "kept: no person changed it after the analysis",
    (LabelOutcome.KEPT, LabelReason.ADDED_BACK): (
        "kept, no correction: a person removed it and added it back (undone)"
    ),
    (LabelOutcome.KEPT, LabelReason.ALREADY_PUT_FORWARD): (
        "kept, no correction: a person added it, but the assistant had put it forward already"
    ),
    (LabelOutcome.KEPT, LabelReason.NOT_PUT_FORWARD): (
        "kept, no correction: a person removed it before the assistant applied it"
    ),
    (LabelOutcome.KEPT, LabelReason.ADDED_THEN_REMOVED): (
        "kept, no correction: a person added and removed it before the assistant applied it"
    ),
    (LabelOutcome.NONE, LabelReason.UNTOUCHED): "nothing to learn",
    (LabelOutcome.NONE, LabelReason.ADDED_THEN_REMOVED): (
        "no correction: a person added it and removed it again (undone)"
    ),
    (LabelOutcome.NONE, LabelReason.NOT_PUT_FORWARD): (
        "no correction: removed, but the assistant had neither proposed nor applied it"
    ),
}

_LABEL_ROLES = {
    LabelRole.ASSISTANT_APPLIED: "the assistant applied it",
    LabelRole.ASSISTANT_OWN: "the assistant's own change, not a correction",
    LabelRole.SHARED_ACCOUNT: "by the assistant's account, which other workflows share: only the "
    "analysis's marker says what the assistant put forward",
    LabelRole.NOT_A_PERSON: "not a person (bots, apps and deleted accounts do not count)",
    LabelRole.BEFORE_ANALYSIS: "before the first analysis, so not a correction of it",
    LabelRole.COUNTS: "counts (a person, after the first analysis)",
}


def _label_lines(
    issue: Issue, first: Analysis, settings: RuleSettings, permissions: Permissions, trace: IssueTrace
) -> list[str]:
    vocabulary = settings.vocabulary
    lines: list[str] = []
    for label in first.labels:
        if vocabulary.canonical(label) is None:
            lines.append(
                f"Label {_label(label)} (proposed): outside the vocabulary (labels.md): never learned."
            )
    for label_trace in trace.labels:
        lines.append(
            f"Label {_label(label_trace.name)}"
            + (" (proposed by the first analysis):" if label_trace.proposed else ":")
        )
        for step in label_trace.steps:
            event = step.event
            verb = "added" if event.kind == "labeled" else "removed"
            lines.append(
                f"  {_when(event)} {_who(event.actor, permissions)} {verb} it: {_LABEL_ROLES[step.role]}"
            )
        verdict = _VERDICTS[(label_trace.outcome, label_trace.reason)]
        if label_trace.reapplied_after:
            verdict += "; the assistant applying it again afterwards does not undo that"
        lines.append("  => " + verdict)
    outside = sorted(
        {
            e.label
            for e in issue.events
            if isinstance(e, LabelChange) and vocabulary.canonical(e.label) is None
        }
    )
    if outside:
        names = ", ".join(_label(n) for n in outside)
        lines.append(f"Labels outside the vocabulary (labels.md), never learned: {names}.")
    return lines


def _duplicate_step_line(step: DuplicateStep, settings: RuleSettings, permissions: Permissions) -> str:
    event = step.event
    actor = event.author if isinstance(event, Comment) else event.actor
    head = f"  {_when(event)} {_who(actor, permissions)}"
    label = _label(settings.duplicate_label)
    words = {
        DuplicateRole.PERMISSION_NOT_READ: " commented: permission not read, not counted",
        DuplicateRole.NOT_A_MAINTAINER: " commented: no triage access, so an objection by someone without triage access",
        DuplicateRole.NOT_DUPLICATE: f" wrote {settings.command_word} not-duplicate",
        DuplicateRole.COMMENT: f" commented without {settings.command_word} not-duplicate",
        DuplicateRole.LABEL_REMOVED: f" removed {label}",
        DuplicateRole.LABEL_REMOVED_NOT_COUNTED: f" removed {label}: not a maintainer",
    }
    return head + words[step.role]


def _duplicate_lines(trace: IssueTrace, settings: RuleSettings, permissions: Permissions) -> list[str]:
    duplicate = trace.duplicate
    if duplicate is None:
        return ["Duplicate notice: none (the first analysis named no duplicate)."]
    lines = [f"Duplicate notice: the first analysis named #{duplicate.of}."]
    if duplicate.outcome is DuplicateOutcome.CONFIRMED:
        return [
            *lines,
            "  => confirmed (closed as a duplicate, or marked as one and not unmarked): nothing learned",
        ]
    lines += [_duplicate_step_line(step, settings, permissions) for step in duplicate.steps]
    if duplicate.outcome is DuplicateOutcome.OBJECTED:
        notice = duplicate.notice
        lines.append(f"  => learned: the duplicate notice was {objected_by(notice)}")
        if notice.by is Objector.OTHER and not trace.correction().by_maintainer:
            lines.append("     (the only correction: its line comes after every maintainer's correction)")
    else:
        lines.append("  => open: no objection yet, nothing learned")
    return lines


_THUMB_ROLES = {
    ThumbRole.NOT_A_PERSON: "not a person, not counted",
    ThumbRole.PERMISSION_NOT_READ: "not counted",
    ThumbRole.NO_PUSH: "no push access, not counted",
    ThumbRole.COUNTED_ALREADY: "counted once already",
    ThumbRole.COUNTED: "counted",
}


def _thumbs_lines(trace: IssueTrace, read: bool, permissions: Permissions) -> list[str]:
    if not read:
        return ["👎 on the first analysis: not read (GitHub did not answer), none counted."]
    if not trace.thumbs:
        return ["👎 on the first analysis: none."]
    lines = [f"👎 on the first analysis: {len(trace.thumbs)}."]
    lines += [f"  {_who(step.actor, permissions)}: {_THUMB_ROLES[step.role]}" for step in trace.thumbs]
    return lines


def explain(
    issue: Issue,
    settings: RuleSettings,
    permissions: Permissions,
    reactors: Sequence[Reaction] | None,
    facts: TrailFacts = TrailFacts(),
    *,
    repeats: AnalysisRepeats | None = None,
) -> list[str]:
    """The lines that explain the correction of one issue, or why it has none.

    `repeats`: what the first analysis's model had been given (corrections/quality/repeats.py), when the
    window was read too: each correction that was a repeat names the line that had given it.
    """
    lines = [f"#{issue.number} {safe_title(issue.title)} ({issue.state.lower()})"]
    found, warnings = analyses(issue, settings)
    first = next((a for a in found if a.kind == "first"), None)
    if first is None:
        return lines + _no_first_analysis(issue, settings, facts)
    labels = ", ".join(_label(n) for n in first.labels) or "none"
    lines.append(
        f"First analysis: comment {first.database_id or first.node_id} by {settings.assistant.login} at "
        f"{_when(first)}, proposed labels {labels}."
    )
    later = [a for a in found if a is not first]
    if later:
        lines.append(
            f"{len(later)} later analysis(es) (follow-ups or repeats) are not learned from; "
            "only events after the first analysis are read against it."
        )
    lines += [f"Warning: {warning}" for warning in warnings]
    decided = trace(issue, first, reactors or (), settings, permissions)
    correction = decided.correction()
    lines += _label_lines(issue, first, settings, permissions, decided)
    lines += _duplicate_lines(decided, settings, permissions)
    lines += _thumbs_lines(decided, reactors is not None, permissions)
    if facts.truncated:
        lines.append("Note: the timeline is longer than a run reads; later events were not seen.")
    for part in sorted(set(facts.missing)):
        lines.append(f"Note: not read from GitHub: {PARTS[part]}.")
    if repeats is not None:
        lines += repeat_lines(repeats)
    if correction.is_corrected:
        lines.append("Result: learned. The line in corrections.md reads:")
        lines.append("  " + correction_line(correction))
    else:
        lines.append("Result: no correction; the first analysis stood as it was, and nothing is learned.")
    return lines


def repeat_lines(found: AnalysisRepeats) -> list[str]:
    """Whether the first analysis's corrections had been given to its model, and by which line."""
    source = (
        "its marker's receipt"
        if found.receipt
        else f"reconstructed: the window a read just before {found.at:%Y-%m-%d %H:%M} would have given"
    )
    lines = [f"Context of the first analysis ({source}): {len(found.context)} correction lines."]
    if not found.corrections:
        return lines
    for decision in found.corrections:
        repeat = next((r for r in found.repeats if r.decision == decision), None)
        if repeat is None:
            lines.append(f"- {decision.words()}: not a repeat (no line of the context had it).")
            continue
        lines.append(
            f"- {decision.words()}: a repeat. The model had been given this line of "
            f"#{repeat.given_by.number}:"
        )
        lines.append("    " + correction_line(repeat.given_by))
    return lines
