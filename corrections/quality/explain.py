"""Why the assistant learned (or did not learn) something from one issue: its trail, in words (pure).

`explain` answers a maintainer's "why did the assistant learn that?" from the same rules that
build the context: every event on a label after the first analysis, who made it and whether it
counts, the duplicate notice's outcome and the 👎 that counted, ending with the correction (or
the reason there is none). It only puts the rules' trace (`rules.issue.trace`) into words, and
each rule's words are its own file's (corrections/rules/labels.py, duplicates.py, thumbs.py):
every outcome and the event that decided it come from there, so explain cannot disagree with the
context or the quality numbers. Untrusted text appears only as JSON strings or cleaned names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assistant.identity import is_assistant, normalize_login
from assistant.untrusted import clean_line
from corrections.quality.repeats import AnalysisRepeats
from corrections.read.notes import PARTS, TrailFacts
from corrections.render.files import correction_line, safe_title
from corrections.rules import duplicates, labels, second_look, thumbs
from corrections.rules.issue import analyses, trace
from corrections.rules.markers import has_analysis_marker
from corrections.rules.models import (
    Actor,
    Analysis,
    Comment,
    Event,
    Issue,
    Permissions,
    Reaction,
)
from corrections.rules.settings import RuleSettings

NOTHING_MISSING = TrailFacts()  # a reading that gave everything


def _when(event: Event | Analysis) -> str:
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


@dataclass(frozen=True)
class _Show:
    """How explain shows what the rules' words name (`rules.models.Show`)."""

    permissions: Permissions

    def who(self, actor: Actor | None) -> str:
        return _who(actor, self.permissions)

    def when(self, event: Event) -> str:
        return _when(event)

    def label(self, name: str) -> str:
        return _label(name)


def explain(
    issue: Issue,
    settings: RuleSettings,
    permissions: Permissions,
    reactors: Sequence[Reaction] | None,
    facts: TrailFacts = NOTHING_MISSING,
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
    proposed = ", ".join(_label(n) for n in first.labels) or "none"
    lines.append(
        f"First analysis: comment {first.database_id or first.node_id} by {settings.assistant.login} at "
        f"{_when(first)}, proposed labels {proposed}."
    )
    lines += [
        f"The second look changed the model's answer: {second_look.explained(e)}." for e in first.left_out
    ]
    later = [a for a in found if a is not first]
    if later:
        lines.append(
            f"{len(later)} later analysis(es) (follow-ups or repeats) are not learned from; "
            "only events after the first analysis are read against it."
        )
    lines += [f"Warning: {warning}" for warning in warnings]
    decided = trace(issue, first, reactors or (), settings, permissions)
    correction = decided.correction()
    show = _Show(permissions)
    lines += labels.explain_lines(issue, first, decided.labels, settings, show)
    lines += duplicates.explain_lines(decided.duplicate, correction.by_maintainer, settings, show)
    lines += thumbs.explain_lines(decided.thumbs, reactors is not None, show)
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
    """Whether each of the first analysis's corrections recurred: the nearest similar earlier
    issue whose correction made the same decision, and whether the model had been given it."""
    source = (
        "its marker's receipt"
        if found.receipt
        else f"reconstructed: the window a read just before {found.at:%Y-%m-%d %H:%M} would have given"
    )
    lines = [f"Context of the first analysis ({source}): {len(found.context)} correction lines."]
    for decision in found.corrections:
        recurrence = next((r for r in found.recurrences if r.decision == decision), None)
        if recurrence is None:
            lines.append(
                f"- {decision.words()}: new (no similar earlier issue had this correction), not a recurrence."
            )
            continue
        earlier = recurrence.earlier.number
        if recurrence.given:
            lines.append(
                f"- {decision.words()}: a recurrence, given. The model had been given this line of "
                f"#{earlier}, a similar issue:"
            )
        else:
            lines.append(
                f"- {decision.words()}: a recurrence, not given. #{earlier}, a similar issue, had this "
                "correction, but its line was not in the context (it had left the window, was ranked "
                "out or cut):"
            )
        lines.append("    " + correction_line(recurrence.earlier))
    return lines
