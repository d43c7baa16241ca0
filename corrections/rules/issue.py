"""What counts as a correction (docs/rules.md), as pure functions on the models.

`corrected_labels` is the one function that both the context (corrections.md) and the quality
numbers use, so what maintainers see measured is what the assistant learns from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from assistant.commands import says_not_duplicate
from assistant.config import Config
from assistant.identity import Identity, is_assistant, is_person, normalize_login
from corrections.rules.markers import MarkerError, has_analysis_marker, parse_analysis
from corrections.rules.models import (
    Actor,
    Analysis,
    Comment,
    DuplicateMark,
    DuplicateNotice,
    DuplicateOutcome,
    Event,
    Issue,
    IssueCorrection,
    LabelChange,
    Permission,
    Reaction,
)
from corrections.rules.trace import (
    MAINTAINER_OBJECTIONS,
    OTHER_OBJECTIONS,
    DuplicateRole,
    DuplicateStep,
    DuplicateTrace,
    IssueTrace,
    LabelOutcome,
    LabelReason,
    LabelRole,
    LabelStep,
    LabelTrace,
    ThumbRole,
    ThumbStep,
)
from corrections.rules.vocabulary import Vocabulary

# A login's permission, keyed by normalize_login; a missing key means it could not be read.
Permissions = Mapping[str, Permission]


@dataclass(frozen=True)
class RuleSettings:
    """The configuration the rules depend on."""

    assistant: Identity = field(default_factory=Identity)
    command_word: str = "/assistant"
    duplicate_label: str = "possible-duplicate"
    vocabulary: Vocabulary = field(default_factory=Vocabulary)

    @classmethod
    def of(cls, config: Config, vocabulary: Vocabulary) -> RuleSettings:
        """The settings of a configuration and the vocabulary read with it."""
        return cls(
            assistant=config.assistant.identity,
            command_word=config.assistant.command,
            duplicate_label=config.assistant.duplicate_label,
            vocabulary=vocabulary,
        )


@dataclass(frozen=True)
class LabelCorrections:
    """Vocabulary labels a maintainer removed from or added to the first analysis, sorted by name."""

    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    # When the latest of the events that decided a correction happened (None: no correction).
    decided_at: datetime | None = None


def analyses(issue: Issue, settings: RuleSettings) -> tuple[list[Analysis], list[str]]:
    """Every analysis on the issue, in timeline order, and a warning per marker that does not parse
    or is not where a marker counts (the first or last thing in its comment)."""
    found: list[Analysis] = []
    warnings: list[str] = []
    for index, event in enumerate(issue.events):
        if not isinstance(event, Comment):
            continue
        misplaced: list[str] = []
        try:
            analysis = parse_analysis(event, index, settings.assistant, misplaced)
        except MarkerError as error:
            analysis = None
            misplaced.append(str(error))
        warnings.extend(f"#{issue.number} {warning}" for warning in misplaced)
        if analysis is not None:
            found.append(analysis)
    return found, warnings


def others_markers(issue: Issue, settings: RuleSettings) -> set[tuple[str, str]]:
    """The accounts (login, GraphQL type) other than the assistant whose comments carry an analysis
    marker where one counts: none of them is an analysis, but many of them say that the configured
    login is not the account that posts the analyses."""
    return {
        (event.author.login, event.author.typename)
        for event in issue.events
        if isinstance(event, Comment)
        and event.author is not None
        and not is_assistant(event.author, settings.assistant)
        and has_analysis_marker(event)
    }


def first_analysis(issue: Issue, settings: RuleSettings) -> Analysis | None:
    """The issue's earliest analysis of kind `first`, if any."""
    found, _ = analyses(issue, settings)
    return next((a for a in found if a.kind == "first"), None)


def _is_duplicate_label(label: str, settings: RuleSettings) -> bool:
    return label.strip().casefold() == settings.duplicate_label.strip().casefold()


def _proposed(analysis: Analysis, settings: RuleSettings) -> set[str]:
    """Vocabulary labels the analysis's marker named (the duplicate label never is one)."""
    vocabulary = settings.vocabulary
    return {
        name
        for label in analysis.labels
        if (name := vocabulary.canonical(label)) is not None and not _is_duplicate_label(name, settings)
    }


def _label_trace(name: str, proposed: bool, steps: list[LabelStep]) -> LabelTrace:
    """The last person's event after the analysis decides; see `corrected_labels`."""
    counted = [step for step in steps if step.role is LabelRole.COUNTS]
    applied_at = [step.index for step in steps if step.role is LabelRole.ASSISTANT_APPLIED]
    deciding = counted[-1] if counted else None
    if deciding is None:
        put = proposed or bool(applied_at)
        outcome = LabelOutcome.KEPT if put else LabelOutcome.NONE
        return LabelTrace(
            name, proposed, bool(applied_at), tuple(steps), None, outcome, LabelReason.UNTOUCHED
        )
    applied_before = any(index < deciding.index for index in applied_at)
    earlier = [step.event.kind for step in counted[:-1]]
    reapplied = False
    if deciding.event.kind == "unlabeled":
        if proposed or applied_before:
            outcome, reason = LabelOutcome.REMOVED, LabelReason.REMOVED
            reapplied = any(index > deciding.index for index in applied_at)
        else:
            put = bool(applied_at)  # applied only after the removal: put forward, and kept
            outcome = LabelOutcome.KEPT if put else LabelOutcome.NONE
            reason = LabelReason.ADDED_THEN_REMOVED if "labeled" in earlier else LabelReason.NOT_PUT_FORWARD
    elif not proposed and not applied_before:
        outcome, reason = LabelOutcome.ADDED, LabelReason.ADDED
    else:
        outcome = LabelOutcome.KEPT
        reason = LabelReason.ADDED_BACK if "unlabeled" in earlier else LabelReason.ALREADY_PUT_FORWARD
    return LabelTrace(name, proposed, bool(applied_at), tuple(steps), deciding, outcome, reason, reapplied)


def _label_role(index: int, event: LabelChange, analysis: Analysis, settings: RuleSettings) -> LabelRole:
    if is_assistant(event.actor, settings.assistant):
        if settings.assistant.is_shared:  # a labeler workflow applies labels as that account too
            return LabelRole.SHARED_ACCOUNT
        return LabelRole.ASSISTANT_APPLIED if event.kind == "labeled" else LabelRole.ASSISTANT_OWN
    if not is_person(event.actor, settings.assistant):
        return LabelRole.NOT_A_PERSON
    if index < analysis.index:
        return LabelRole.BEFORE_ANALYSIS
    return LabelRole.COUNTS


def label_traces(issue: Issue, analysis: Analysis, settings: RuleSettings) -> tuple[LabelTrace, ...]:
    """Every vocabulary label the analysis proposed or any event touched, in vocabulary order.

    Removed: the analysis proposed the label or the assistant applied it (before), and the last
    event on it by a person (after the analysis) removed it. Added: neither proposed nor applied by
    the assistant before the last event by a person, which added it. A change a person undid is no
    correction; the assistant re-applying a label does not undo a person's removal. Put forward
    (the base of "kept"): proposed or applied by the assistant, unless a person added it first.
    With a shared account (`Identity.is_shared`) what it applied is not the assistant's: only the
    marker's labels are put forward.
    """
    vocabulary = settings.vocabulary
    proposed = _proposed(analysis, settings)
    steps: dict[str, list[LabelStep]] = {}
    for index, event in enumerate(issue.events):
        if not isinstance(event, LabelChange):
            continue
        name = vocabulary.canonical(event.label)
        if name is None or _is_duplicate_label(name, settings):
            continue
        steps.setdefault(name, []).append(
            LabelStep(index, event, _label_role(index, event, analysis, settings))
        )
    return tuple(
        _label_trace(name, name in proposed, steps.get(name, []))
        for name in vocabulary.names
        if name in steps or name in proposed
    )


def put_forward(issue: Issue, analysis: Analysis, settings: RuleSettings) -> tuple[str, ...]:
    """Vocabulary labels the assistant put forward (the base of "kept"), from the label traces."""
    return tuple(sorted(t.name for t in label_traces(issue, analysis, settings) if t.put_forward))


def corrected_labels(issue: Issue, analysis: Analysis, settings: RuleSettings) -> LabelCorrections:
    """The label corrections of one issue, from its label traces (the one place that decides)."""
    traces = label_traces(issue, analysis, settings)
    return LabelCorrections(
        removed=tuple(sorted(t.name for t in traces if t.outcome is LabelOutcome.REMOVED)),
        added=tuple(sorted(t.name for t in traces if t.outcome is LabelOutcome.ADDED)),
        decided_at=max((t.decided_at for t in traces if t.decided_at is not None), default=None),
    )


def is_confirmed_duplicate(issue: Issue) -> bool:
    """Closed as DUPLICATE now (latest close, not reopened), or marked and not unmarked since."""
    if issue.state == "CLOSED" and issue.state_reason == "DUPLICATE":
        return True
    marks = [event for event in issue.events if isinstance(event, DuplicateMark)]
    return bool(marks) and marks[-1].kind == "marked_as_duplicate"


def _permission(actor: Actor | None, permissions: Permissions) -> Permission | None:
    return None if actor is None else permissions.get(normalize_login(actor.login))


def _duplicate_actor(event: Event, settings: RuleSettings) -> Actor | None:
    """The person whose event may decide a duplicate notice: a comment, or removing the label."""
    if isinstance(event, Comment):
        actor = event.author
    elif (
        isinstance(event, LabelChange)
        and event.kind == "unlabeled"
        and _is_duplicate_label(event.label, settings)
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
    permission = _permission(actor, permissions)
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

    Confirmed by the issue's state; otherwise objected when, after the analysis, a person who is
    not a maintainer commented, or a maintainer wrote the not-duplicate command or removed the
    duplicate label; open otherwise. Who objected is part of it: a maintainer's objection decides
    at once; a comment by someone without triage access objects too, but the events after it are
    still read, so that a maintainer's objection later is the one that counts (docs/rules.md,
    "Duplicate notices"). A person whose permission could not be read does not count either way.
    """
    if analysis.duplicate_of is None:
        return None
    if is_confirmed_duplicate(issue):
        return DuplicateTrace(of=analysis.duplicate_of, outcome=DuplicateOutcome.CONFIRMED)
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


def duplicate_outcome(
    issue: Issue, analysis: Analysis, settings: RuleSettings, permissions: Permissions
) -> DuplicateNotice | None:
    """The outcome of the first analysis's duplicate notice; None when it named no duplicate."""
    found = duplicate_trace(issue, analysis, settings, permissions)
    return None if found is None else found.notice


def thumbs_trace(
    reactions: Iterable[Reaction], settings: RuleSettings, permissions: Permissions
) -> tuple[ThumbStep, ...]:
    """Each 👎 on the first analysis: counted once per person with push access (WRITE or more)."""
    seen: set[str] = set()
    steps: list[ThumbStep] = []
    for reaction in reactions:
        actor = reaction.actor
        if actor is None or not is_person(actor, settings.assistant):
            steps.append(ThumbStep(reaction, ThumbRole.NOT_A_PERSON))
            continue
        login = normalize_login(actor.login)
        permission = permissions.get(login)
        if permission is None:
            role = ThumbRole.PERMISSION_NOT_READ
        elif not permission.is_pusher:
            role = ThumbRole.NO_PUSH
        elif login in seen:
            role = ThumbRole.COUNTED_ALREADY
        else:
            seen.add(login)
            role = ThumbRole.COUNTED
        steps.append(ThumbStep(reaction, role))
    return tuple(steps)


def counted_reactions(
    reactions: Iterable[Reaction], settings: RuleSettings, permissions: Permissions
) -> list[Reaction]:
    """The 👎 on the first analysis that count: one per person with push access (WRITE or more)."""
    return [
        step.reaction
        for step in thumbs_trace(reactions, settings, permissions)
        if step.role is ThumbRole.COUNTED
    ]


def counted_thumbs_down(
    reactions: Iterable[Reaction], settings: RuleSettings, permissions: Permissions
) -> int:
    """Distinct people with push access (WRITE, MAINTAIN, ADMIN) among the 👎 on the first analysis."""
    return len(counted_reactions(reactions, settings, permissions))


def duplicate_deciders(issue: Issue, analysis: Analysis, settings: RuleSettings) -> set[str]:
    """Logins whose permission decides the duplicate outcome (empty when it is already decided)."""
    if analysis.duplicate_of is None or is_confirmed_duplicate(issue):
        return set()
    return {
        normalize_login(actor.login)
        for event in issue.events[analysis.index + 1 :]
        if (actor := _duplicate_actor(event, settings)) is not None
    }


def people_after(issue: Issue, analysis: Analysis, settings: RuleSettings) -> set[str]:
    """Every person who acted on the issue after the analysis (likely reactors: worth a look-up)."""
    logins: set[str] = set()
    for event in issue.events[analysis.index + 1 :]:
        actor = event.author if isinstance(event, Comment) else event.actor
        if is_person(actor, settings.assistant):
            assert actor is not None
            logins.add(normalize_login(actor.login))
    return logins


def event_actors_after(issue: Issue, analysis: Analysis, settings: RuleSettings) -> set[str]:
    """The people who labelled, closed, reopened or marked the issue after the analysis (no
    comments): on GitHub mostly triagers and up, the likeliest to give a 👎 that counts."""
    logins: set[str] = set()
    for event in issue.events[analysis.index + 1 :]:
        if isinstance(event, Comment):
            continue
        if is_person(event.actor, settings.assistant):
            assert event.actor is not None
            logins.add(normalize_login(event.actor.login))
    return logins


def trace(
    issue: Issue,
    analysis: Analysis,
    reactions: Sequence[Reaction],
    settings: RuleSettings,
    permissions: Permissions,
) -> IssueTrace:
    """All the rules on one issue of the window, with what decided each outcome."""
    return IssueTrace(
        number=issue.number,
        title=issue.title,
        analysis=analysis,
        labels=label_traces(issue, analysis, settings),
        duplicate=duplicate_trace(issue, analysis, settings, permissions),
        thumbs=thumbs_trace(reactions, settings, permissions),
    )


def correct(
    issue: Issue,
    analysis: Analysis,
    reactions: Sequence[Reaction],
    settings: RuleSettings,
    permissions: Permissions,
) -> IssueCorrection:
    """What the context and the quality numbers hold of one issue (its trace, summed up)."""
    return trace(issue, analysis, reactions, settings, permissions).correction()
