"""The duplicate rule (docs/rules.md, "Duplicate notices"): confirmed, objected (and by whom), open.

Closed (or marked) as a duplicate of the issue named confirms the notice; of another issue
(GitHub's `ClosedEvent.duplicateOf`, a mark's `canonical`) corrects it: an objection by whoever
closed or marked it.

One file holds the rule: the decision (`duplicate_trace`), its trace (how each event after the
notice was read), whose permission decides it (`duplicate_deciders`) and its words: the phrase of
a corrections.md line, explain's sentences and the quality report's count. A renderer calls
these; it never spells the rule's words itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from assistant.commands import says_not_duplicate
from assistant.identity import is_person, normalize_login
from corrections.rules.models import (
    Actor,
    Analysis,
    Closed,
    Comment,
    DuplicateMark,
    DuplicateNotice,
    DuplicateOutcome,
    Event,
    Issue,
    IssueCorrection,
    LabelChange,
    Objector,
    Permissions,
    Reopened,
    Show,
)
from corrections.rules.settings import RuleSettings


class DuplicateRole(StrEnum):
    """How the rules read one event after a duplicate notice."""

    PERMISSION_NOT_READ = "permission not read"
    NOT_A_MAINTAINER = "comment by someone who is not a maintainer: an objection"
    NOT_DUPLICATE = "not-duplicate command: an objection"
    COMMENT = "a maintainer's comment without the command"
    LABEL_REMOVED = "a maintainer removed the duplicate label: an objection"
    LABEL_REMOVED_NOT_COUNTED = "the duplicate label removed by someone who is not a maintainer"
    OTHER_ISSUE = "a maintainer closed or marked it as a duplicate of another issue: an objection"
    OTHER_ISSUE_NOT_A_MAINTAINER = (
        "closed or marked as a duplicate of another issue by someone without triage access: an objection"
    )
    OTHER_ISSUE_PERMISSION_NOT_READ = "closed or marked as a duplicate of another issue: permission not read"


# A maintainer's objection (the command, the label removed, another issue chosen) decides the
# notice at once; a comment by someone without triage access objects too, but the reading goes on
# to find a maintainer's.
MAINTAINER_OBJECTIONS = frozenset(
    {DuplicateRole.NOT_DUPLICATE, DuplicateRole.LABEL_REMOVED, DuplicateRole.OTHER_ISSUE}
)
OTHER_OBJECTIONS = frozenset({DuplicateRole.NOT_A_MAINTAINER, DuplicateRole.OTHER_ISSUE_NOT_A_MAINTAINER})
_OTHER_ISSUE_ROLES = frozenset(
    {
        DuplicateRole.OTHER_ISSUE,
        DuplicateRole.OTHER_ISSUE_NOT_A_MAINTAINER,
        DuplicateRole.OTHER_ISSUE_PERMISSION_NOT_READ,
    }
)


@dataclass(frozen=True)
class DuplicateStep:
    """One event read against the duplicate notice."""

    event: Comment | LabelChange | Closed | DuplicateMark
    role: DuplicateRole

    @property
    def other_issue(self) -> int | None:
        """The issue this step closed or marked the issue as a duplicate of, when it chose another."""
        if self.role not in _OTHER_ISSUE_ROLES:
            return None
        event = self.event
        return event.duplicate_of if isinstance(event, Closed) else getattr(event, "canonical", None)


@dataclass(frozen=True)
class DuplicateTrace:
    """The duplicate notice of the first analysis, its outcome, and the events read up to the decision."""

    of: int
    outcome: DuplicateOutcome
    # Empty when confirmed (the issue's state decided); read up to a maintainer's objection, or to
    # the end when only people without triage access objected.
    steps: tuple[DuplicateStep, ...] = ()

    @property
    def deciding(self) -> DuplicateStep | None:
        """The objection that decides: a maintainer's if any (the last step read), else the first
        comment by someone without triage access; None unless objected."""
        if self.outcome is not DuplicateOutcome.OBJECTED:
            return None
        for roles in (MAINTAINER_OBJECTIONS, OTHER_OBJECTIONS):
            found = next((step for step in self.steps if step.role in roles), None)
            if found is not None:
                return found
        return None

    @property
    def by(self) -> Objector | None:
        """Who objected: a maintainer (the command, the label removed) or only other people."""
        deciding = self.deciding
        if deciding is None:
            return None
        return Objector.MAINTAINER if deciding.role in MAINTAINER_OBJECTIONS else Objector.OTHER

    @property
    def notice(self) -> DuplicateNotice:
        """The outcome as the context and the quality numbers hold it: the deciding objection's
        date and who made it."""
        deciding = self.deciding
        return DuplicateNotice(
            of=self.of,
            outcome=self.outcome,
            at=deciding.event.at if deciding else None,
            by=self.by,
            instead=deciding.other_issue if deciding else None,
        )


def is_confirmed_duplicate(issue: Issue) -> bool:
    """Closed as DUPLICATE now (latest close, not reopened), or marked and not unmarked since."""
    if issue.state == "CLOSED" and issue.state_reason == "DUPLICATE":
        return True
    marks = [event for event in issue.events if isinstance(event, DuplicateMark)]
    return bool(marks) and marks[-1].kind == "marked_as_duplicate"


def other_issue_chosen(issue: Issue, named: int) -> Closed | DuplicateMark | None:
    """The event that makes the issue a duplicate of an issue other than `named`, if any: the
    close as DUPLICATE that still stands when its `duplicateOf` names another issue, else (no such
    close) the mark not unmarked since when its canonical is another issue."""
    if issue.state == "CLOSED" and issue.state_reason == "DUPLICATE":
        last = next((e for e in reversed(issue.events) if isinstance(e, Closed | Reopened)), None)
        if isinstance(last, Closed) and last.duplicate_of is not None:
            return last if last.duplicate_of != named else None
    marks = [event for event in issue.events if isinstance(event, DuplicateMark)]
    if marks and marks[-1].kind == "marked_as_duplicate" and marks[-1].canonical not in (None, named):
        return marks[-1]
    return None


def _other_issue_step(
    event: Closed | DuplicateMark, settings: RuleSettings, permissions: Permissions
) -> DuplicateStep | None:
    """How choosing another issue reads: an objection by its actor; None for the assistant or a bot."""
    if not is_person(event.actor, settings.assistant):
        return None
    assert event.actor is not None
    permission = permissions.get(normalize_login(event.actor.login))
    if permission is None:
        return DuplicateStep(event, DuplicateRole.OTHER_ISSUE_PERMISSION_NOT_READ)
    if permission.is_maintainer:
        return DuplicateStep(event, DuplicateRole.OTHER_ISSUE)
    return DuplicateStep(event, DuplicateRole.OTHER_ISSUE_NOT_A_MAINTAINER)


def _duplicate_actor(event: Event, settings: RuleSettings) -> Actor | None:
    """The person whose event may decide a duplicate notice: a comment, or removing the label."""
    if isinstance(event, Comment):
        actor = event.author
    elif (
        isinstance(event, LabelChange)
        and event.kind == "unlabeled"
        and settings.is_duplicate_label(event.label)
    ):
        actor = event.actor
    else:
        return None
    return actor if is_person(actor, settings.assistant) else None


def _duplicate_step(event: Event, settings: RuleSettings, permissions: Permissions) -> DuplicateStep | None:
    """How one event after the notice reads; None for events that say nothing about it."""
    actor = _duplicate_actor(event, settings)
    if actor is None:
        return None
    permission = permissions.get(normalize_login(actor.login))
    if isinstance(event, Comment):
        if permission is None:
            return DuplicateStep(event, DuplicateRole.PERMISSION_NOT_READ)
        if not permission.is_maintainer:
            return DuplicateStep(event, DuplicateRole.NOT_A_MAINTAINER)
        if says_not_duplicate(event.body, settings.command_word):
            return DuplicateStep(event, DuplicateRole.NOT_DUPLICATE)
        return DuplicateStep(event, DuplicateRole.COMMENT)
    assert isinstance(event, LabelChange)
    if permission is not None and permission.is_maintainer:
        return DuplicateStep(event, DuplicateRole.LABEL_REMOVED)
    return DuplicateStep(event, DuplicateRole.LABEL_REMOVED_NOT_COUNTED)


def duplicate_trace(
    issue: Issue, analysis: Analysis, settings: RuleSettings, permissions: Permissions
) -> DuplicateTrace | None:
    """The first analysis's duplicate notice and what decided it; None when it named no duplicate.

    Confirmed by the issue's state, unless that state names another issue (`other_issue_chosen`):
    then objected by whoever chose it (open when their permission could not be read). Otherwise
    objected when, after the analysis, a person who is not a maintainer commented, or a maintainer
    wrote the not-duplicate command or removed the duplicate label; open otherwise. Who objected is part of it: a maintainer's objection decides
    at once; a comment by someone without triage access objects too, but the events after it are
    still read, so that a maintainer's objection later is the one that counts (docs/rules.md,
    "Duplicate notices"). A person whose permission could not be read does not count either way.
    """
    if analysis.duplicate_of is None:
        return None
    if is_confirmed_duplicate(issue):
        chosen = other_issue_chosen(issue, analysis.duplicate_of)
        step = _other_issue_step(chosen, settings, permissions) if chosen is not None else None
        if step is None:
            return DuplicateTrace(of=analysis.duplicate_of, outcome=DuplicateOutcome.CONFIRMED)
        counted = step.role is not DuplicateRole.OTHER_ISSUE_PERMISSION_NOT_READ
        outcome = DuplicateOutcome.OBJECTED if counted else DuplicateOutcome.OPEN
        return DuplicateTrace(analysis.duplicate_of, outcome, (step,))
    steps: list[DuplicateStep] = []
    for event in issue.events[analysis.index + 1 :]:
        step = _duplicate_step(event, settings, permissions)
        if step is None:
            continue
        steps.append(step)
        if step.role in MAINTAINER_OBJECTIONS:
            break
    objected = any(step.role in MAINTAINER_OBJECTIONS | OTHER_OBJECTIONS for step in steps)
    outcome = DuplicateOutcome.OBJECTED if objected else DuplicateOutcome.OPEN
    return DuplicateTrace(analysis.duplicate_of, outcome, tuple(steps))


def duplicate_deciders(issue: Issue, analysis: Analysis, settings: RuleSettings) -> set[str]:
    """Logins whose permission decides the duplicate outcome: when the issue's state decides it,
    only whoever chose another issue (if anyone did)."""
    if analysis.duplicate_of is None:
        return set()
    if is_confirmed_duplicate(issue):
        chosen = other_issue_chosen(issue, analysis.duplicate_of)
        if chosen is None or not is_person(chosen.actor, settings.assistant):
            return set()
        assert chosen.actor is not None
        return {normalize_login(chosen.actor.login)}
    return {
        normalize_login(actor.login)
        for event in issue.events[analysis.index + 1 :]
        if (actor := _duplicate_actor(event, settings)) is not None
    }


# The words: what the rule found, as corrections.md, explain, quality.md and the step summary say it.

_OBJECTORS = {Objector.MAINTAINER: "a maintainer", Objector.OTHER: "someone without triage access"}


def objected_by(notice: DuplicateNotice) -> str:
    """ "objected to by a maintainer" or "objected to by someone without triage access"."""
    return f"objected to by {_OBJECTORS[notice.by or Objector.OTHER]}"


def correction_words(correction: IssueCorrection, reason: str) -> list[str]:
    """The objection of a corrections.md line, if any; `reason` says where its reason is written."""
    objection = correction.objection
    if objection is None:
        return []
    instead = "" if objection.instead is None else f": it is a duplicate of #{objection.instead} instead"
    return [f"duplicate notice (of #{objection.of}) {objected_by(objection)}{instead}{reason}"]


def month_words(confirmed: int, objected: int, objected_by_other: int, still_open: int) -> str:
    """A month's duplicate notices (quality.md): how many of each outcome, and who objected."""
    if not objected:
        objections = "0 objected to"
    else:
        objections = (
            f"{objected} objected to ({objected - objected_by_other} by a maintainer, {objected_by_other} "
            "only by someone without triage access)"
        )
    return f"Duplicate notices: {confirmed} confirmed, {objections}, {still_open} open"


def _step_line(step: DuplicateStep, settings: RuleSettings, show: Show) -> str:
    event = step.event
    actor = event.author if isinstance(event, Comment) else event.actor
    head = f"  {show.when(event)} {show.who(actor)}"
    label = show.label(settings.duplicate_label)
    chose = f" {'closed' if isinstance(event, Closed) else 'marked'} it as a duplicate of #{step.other_issue}"
    words = {
        DuplicateRole.OTHER_ISSUE: f"{chose}, not the issue named: an objection by a maintainer",
        DuplicateRole.OTHER_ISSUE_NOT_A_MAINTAINER: f"{chose}, not the issue named: no triage access, "
        "so an objection by someone without triage access",
        DuplicateRole.OTHER_ISSUE_PERMISSION_NOT_READ: f"{chose}, not the issue named: permission not "
        "read, not counted",
        DuplicateRole.PERMISSION_NOT_READ: " commented: permission not read, not counted",
        DuplicateRole.NOT_A_MAINTAINER: " commented: no triage access, so an objection by someone without triage access",
        DuplicateRole.NOT_DUPLICATE: f" wrote {settings.command_word} not-duplicate",
        DuplicateRole.COMMENT: f" commented without {settings.command_word} not-duplicate",
        DuplicateRole.LABEL_REMOVED: f" removed {label}",
        DuplicateRole.LABEL_REMOVED_NOT_COUNTED: f" removed {label}: not a maintainer",
    }
    return head + words[step.role]


def explain_lines(
    duplicate: DuplicateTrace | None, by_maintainer: bool, settings: RuleSettings, show: Show
) -> list[str]:
    """`explain`'s lines on the duplicate notice; `by_maintainer`: whether the issue's correction
    is a maintainer's (`IssueCorrection.by_maintainer`)."""
    if duplicate is None:
        return ["Duplicate notice: none (the first analysis named no duplicate)."]
    lines = [f"Duplicate notice: the first analysis named #{duplicate.of}."]
    if duplicate.outcome is DuplicateOutcome.CONFIRMED:
        return [
            *lines,
            "  => confirmed (closed as a duplicate, or marked as one and not unmarked): nothing learned",
        ]
    lines += [_step_line(step, settings, show) for step in duplicate.steps]
    if duplicate.outcome is DuplicateOutcome.OBJECTED:
        notice = duplicate.notice
        instead = "" if notice.instead is None else f" (it is a duplicate of #{notice.instead} instead)"
        lines.append(f"  => learned: the duplicate notice was {objected_by(notice)}{instead}")
        if notice.by is Objector.OTHER and not by_maintainer:
            lines.append("     (the only correction: its line comes after every maintainer's correction)")
    else:
        lines.append("  => open: no objection yet, nothing learned")
    return lines
