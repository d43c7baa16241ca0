"""Why the assistant learned (or did not learn) something from one issue: its trail, in words (pure).

`explain` answers a maintainer's "why did the assistant learn that?" from the same rules that
build the context: every event on a label after the first analysis, who made it and whether it
counts, the duplicate notice's outcome and the 👎 that counted, ending with the correction (or
the reason there is none). Untrusted text appears only as JSON strings or cleaned names.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from assistant.identity import is_assistant, is_person, normalize_login
from corrections.commands import says_not_duplicate
from corrections.models import (
    Actor,
    Analysis,
    Comment,
    DuplicateMark,
    Issue,
    IssueCorrection,
    LabelChange,
)
from corrections.notes import PARTS
from corrections.render import correction_line, safe_title
from corrections.rules import Permissions, RuleSettings, analyses, correct, is_confirmed_duplicate

MARKER_WORD = "assistant:analysis"


@dataclass(frozen=True)
class TrailFacts:
    """What the reading could not give: a cut timeline, 👎 not read, parts missing."""

    truncated: bool = False
    reactions_read: bool = True
    missing: Collection[str] = ()


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
    return "`" + name.replace("`", "'").replace("\n", " ").strip() + "`"


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
            and MARKER_WORD in event.body
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


def _label_lines(
    issue: Issue,
    first: Analysis,
    settings: RuleSettings,
    permissions: Permissions,
    correction: IssueCorrection,
) -> list[str]:
    vocabulary = settings.vocabulary
    duplicate = settings.duplicate_label.strip().casefold()
    proposed = {name for label in first.labels if (name := vocabulary.canonical(label)) is not None}
    groups: dict[str, list[tuple[int, LabelChange]]] = {}
    outside: dict[str, int] = {}
    for index, event in enumerate(issue.events):
        if not isinstance(event, LabelChange):
            continue
        name = vocabulary.canonical(event.label)
        if name is None:
            outside[event.label] = outside.get(event.label, 0) + 1
        elif name.casefold() != duplicate:
            groups.setdefault(name, []).append((index, event))
    lines: list[str] = []
    for label in first.labels:
        if vocabulary.canonical(label) is None:
            lines.append(
                f"Label {_label(label)} (proposed): outside the vocabulary (labels.md): never learned."
            )
    for name in [n for n in vocabulary.names if n in groups or n in proposed]:
        if name.casefold() == duplicate:
            continue
        lines.append(
            f"Label {_label(name)}" + (" (proposed by the first analysis):" if name in proposed else ":")
        )
        applied_before: list[int] = []
        human_after: list[tuple[int, LabelChange]] = []
        for index, event in groups.get(name, []):
            verb = "added" if event.kind == "labeled" else "removed"
            head = f"  {_when(event)} {_who(event.actor, permissions)} {verb} it"
            if is_assistant(event.actor, settings.assistant):
                if event.kind == "labeled":
                    applied_before.append(index)
                    lines.append(f"{head}: the assistant applied it")
                else:
                    lines.append(f"{head}: the assistant's own change, not a correction")
            elif not is_person(event.actor, settings.assistant):
                lines.append(f"{head}: not a person (bots, apps and deleted accounts do not count)")
            elif index < first.index:
                lines.append(f"{head}: before the first analysis, so not a correction of it")
            else:
                human_after.append((index, event))
                lines.append(f"{head}: counts (a person, after the first analysis)")
        put_forward = name in proposed or bool(applied_before)
        verdict = _label_verdict(name, put_forward, human_after, correction)
        if name in correction.labels_removed and any(i > human_after[-1][0] for i in applied_before):
            verdict += "; the assistant applying it again afterwards does not undo that"
        lines.append("  => " + verdict)
    if outside:
        names = ", ".join(_label(n) for n in sorted(outside))
        lines.append(f"Labels outside the vocabulary (labels.md), never learned: {names}.")
    return lines


def _label_verdict(
    name: str,
    put_forward: bool,
    human_after: list[tuple[int, LabelChange]],
    correction: IssueCorrection,
) -> str:
    """The rules' verdict on one label (corrected_labels decides), with the reason in words."""
    if name in correction.labels_removed:
        return "learned: a maintainer removed this label (the last change by a person removed it)"
    if name in correction.labels_added:
        return "learned: a maintainer added this label (the assistant had not put it forward)"
    if not human_after:
        return "kept: no person changed it after the analysis" if put_forward else "nothing to learn"
    earlier = [event.kind for _, event in human_after[:-1]]
    if human_after[-1][1].kind == "unlabeled":
        if "labeled" in earlier:
            return "no correction: a person added it and removed it again (undone)"
        return "no correction: removed, but the assistant had neither proposed nor applied it"
    if "unlabeled" in earlier:
        return "no correction: a person removed it and added it back (undone)"
    return "no correction: a person added it, but the assistant had put it forward already"


def _duplicate_lines(
    issue: Issue, first: Analysis, settings: RuleSettings, permissions: Permissions
) -> list[str]:
    if first.duplicate_of is None:
        return ["Duplicate notice: none (the first analysis named no duplicate)."]
    head = f"Duplicate notice: the first analysis named #{first.duplicate_of}."
    if is_confirmed_duplicate(issue):
        return [
            head,
            "  => confirmed (closed as a duplicate, or marked as one and not unmarked): nothing learned",
        ]
    lines = [head]
    for event in issue.events[first.index + 1 :]:
        if isinstance(event, Comment) and is_person(event.author, settings.assistant):
            assert event.author is not None
            level = permissions.get(normalize_login(event.author.login))
            who = _who(event.author, permissions)
            if level is None:
                lines.append(f"  {_when(event)} {who} commented: permission not read, not counted")
                continue
            if not level.is_maintainer:
                lines.append(f"  {_when(event)} {who} commented: not a maintainer, so an objection")
                lines.append("  => learned: the duplicate notice was objected to")
                return lines
            if says_not_duplicate(event.body, settings.command_word):
                lines.append(f"  {_when(event)} {who} wrote {settings.command_word} not-duplicate")
                lines.append("  => learned: the duplicate notice was objected to")
                return lines
            lines.append(f"  {_when(event)} {who} commented without {settings.command_word} not-duplicate")
        elif (
            isinstance(event, LabelChange)
            and event.kind == "unlabeled"
            and event.label.strip().casefold() == settings.duplicate_label.strip().casefold()
            and is_person(event.actor, settings.assistant)
        ):
            assert event.actor is not None
            level = permissions.get(normalize_login(event.actor.login))
            who = _who(event.actor, permissions)
            if level is not None and level.is_maintainer:
                lines.append(f"  {_when(event)} {who} removed {_label(settings.duplicate_label)}")
                lines.append("  => learned: the duplicate notice was objected to")
                return lines
            lines.append(
                f"  {_when(event)} {who} removed {_label(settings.duplicate_label)}: not a maintainer"
            )
    lines.append("  => open: no objection yet, nothing learned")
    return lines


def _thumbs_lines(
    reactors: Sequence[Actor | None] | None, settings: RuleSettings, permissions: Permissions
) -> list[str]:
    if reactors is None:
        return ["👎 on the first analysis: not read (GitHub did not answer), none counted."]
    if not reactors:
        return ["👎 on the first analysis: none."]
    lines = [f"👎 on the first analysis: {len(reactors)}."]
    seen: set[str] = set()
    for actor in reactors:
        who = _who(actor, permissions)
        if not is_person(actor, settings.assistant):
            lines.append(f"  {who}: not a person, not counted")
            continue
        assert actor is not None
        login = normalize_login(actor.login)
        level = permissions.get(login)
        if level is None:
            lines.append(f"  {who}: not counted")
        elif not level.is_pusher:
            lines.append(f"  {who}: no push access, not counted")
        elif login in seen:
            lines.append(f"  {who}: counted once already")
        else:
            seen.add(login)
            lines.append(f"  {who}: counted")
    return lines


def explain(
    issue: Issue,
    settings: RuleSettings,
    permissions: Permissions,
    reactors: Sequence[Actor | None] | None,
    facts: TrailFacts = TrailFacts(),
) -> list[str]:
    """The lines that explain the correction of one issue, or why it has none."""
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
    correction = correct(issue, first, reactors or (), settings, permissions)
    lines += _label_lines(issue, first, settings, permissions, correction)
    lines += _duplicate_lines(issue, first, settings, permissions)
    lines += _thumbs_lines(reactors, settings, permissions)
    if facts.truncated:
        lines.append("Note: the timeline is longer than a run reads; later events were not seen.")
    for part in sorted(set(facts.missing)):
        if part in PARTS:
            lines.append(f"Note: not read from GitHub: {PARTS[part]}.")
    if correction.is_corrected:
        lines.append("Result: learned. The line in corrections.md reads:")
        lines.append("  " + correction_line(correction))
    else:
        lines.append("Result: no correction; the first analysis stood as it was, and nothing is learned.")
    return lines
