"""What counts as a correction (docs/rules.md), as pure functions on the models.

`corrected_labels` is the one function that both the context (corrections.md) and the quality
numbers use, so what maintainers see measured is what the assistant learns from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from assistant.identity import Identity, is_assistant, is_person, normalize_login
from corrections.commands import says_not_duplicate
from corrections.markers import MarkerError, parse_analysis
from corrections.models import (
    Actor,
    Analysis,
    Comment,
    DuplicateMark,
    DuplicateNotice,
    DuplicateOutcome,
    Issue,
    IssueCorrection,
    LabelChange,
    Permission,
)
from corrections.vocabulary import Vocabulary

# A login's permission, keyed by normalize_login; a missing key means it could not be read.
Permissions = Mapping[str, Permission]


@dataclass(frozen=True)
class RuleSettings:
    """The configuration the rules depend on."""

    assistant: Identity = field(default_factory=Identity)
    command_word: str = "/assistant"
    duplicate_label: str = "possible-duplicate"
    vocabulary: Vocabulary = field(default_factory=Vocabulary)


@dataclass(frozen=True)
class LabelCorrections:
    """Vocabulary labels a maintainer removed from or added to the first analysis, sorted by name."""

    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()


def analyses(issue: Issue, settings: RuleSettings) -> tuple[list[Analysis], list[str]]:
    """Every analysis on the issue, in timeline order, and a warning per marker that does not parse."""
    found: list[Analysis] = []
    warnings: list[str] = []
    for index, event in enumerate(issue.events):
        if not isinstance(event, Comment):
            continue
        try:
            analysis = parse_analysis(event, index, settings.assistant)
        except MarkerError as error:
            warnings.append(f"#{issue.number} {error}")
            continue
        if analysis is not None:
            found.append(analysis)
    return found, warnings


def first_analysis(issue: Issue, settings: RuleSettings) -> Analysis | None:
    """The issue's earliest analysis of kind `first`, if any."""
    found, _ = analyses(issue, settings)
    return next((a for a in found if a.kind == "first"), None)


def _is_duplicate_label(label: str, settings: RuleSettings) -> bool:
    return label.strip().casefold() == settings.duplicate_label.strip().casefold()


def corrected_labels(issue: Issue, analysis: Analysis, settings: RuleSettings) -> LabelCorrections:
    """The label corrections of one issue: the last human event on each vocabulary label decides.

    Removed: the analysis proposed the label or the assistant applied it, and the last event on
    it by a person (after the analysis) removed it. Added: neither proposed nor applied by the
    assistant, and the last event by a person added it. A change a person undid is no correction;
    the assistant re-applying a label does not undo a person's removal.
    """
    vocabulary = settings.vocabulary
    proposed = {
        name
        for label in analysis.labels
        if (name := vocabulary.canonical(label)) is not None and not _is_duplicate_label(name, settings)
    }
    last_human: dict[str, tuple[int, LabelChange]] = {}
    assistant_applied: dict[str, list[int]] = {}
    for index, event in enumerate(issue.events):
        if not isinstance(event, LabelChange):
            continue
        name = vocabulary.canonical(event.label)
        if name is None or _is_duplicate_label(name, settings):
            continue
        if event.kind == "labeled" and is_assistant(event.actor, settings.assistant):
            assistant_applied.setdefault(name, []).append(index)
        elif index > analysis.index and is_person(event.actor, settings.assistant):
            last_human[name] = (index, event)
    removed: list[str] = []
    added: list[str] = []
    for name, (index, event) in last_human.items():
        applied = any(position < index for position in assistant_applied.get(name, ()))
        if event.kind == "unlabeled" and (name in proposed or applied):
            removed.append(name)
        elif event.kind == "labeled" and name not in proposed and not applied:
            added.append(name)
    return LabelCorrections(removed=tuple(sorted(removed)), added=tuple(sorted(added)))


def is_confirmed_duplicate(issue: Issue) -> bool:
    """Closed as DUPLICATE now (latest close, not reopened), or marked and not unmarked since."""
    if issue.state == "CLOSED" and issue.state_reason == "DUPLICATE":
        return True
    marks = [event for event in issue.events if isinstance(event, DuplicateMark)]
    return bool(marks) and marks[-1].kind == "marked_as_duplicate"


def _permission(actor: Actor | None, permissions: Permissions) -> Permission | None:
    return None if actor is None else permissions.get(normalize_login(actor.login))


def duplicate_outcome(
    issue: Issue, analysis: Analysis, settings: RuleSettings, permissions: Permissions
) -> DuplicateNotice | None:
    """The outcome of the first analysis's duplicate notice; None when it named no duplicate.

    A person whose permission could not be read does not count either way.
    """
    if analysis.duplicate_of is None:
        return None
    if is_confirmed_duplicate(issue):
        return DuplicateNotice(of=analysis.duplicate_of, outcome=DuplicateOutcome.CONFIRMED)
    for event in issue.events[analysis.index + 1 :]:
        if isinstance(event, Comment) and is_person(event.author, settings.assistant):
            permission = _permission(event.author, permissions)
            if permission is None:
                continue
            if not permission.is_maintainer or says_not_duplicate(event.body, settings.command_word):
                return DuplicateNotice(of=analysis.duplicate_of, outcome=DuplicateOutcome.OBJECTED)
        elif (
            isinstance(event, LabelChange)
            and event.kind == "unlabeled"
            and _is_duplicate_label(event.label, settings)
            and is_person(event.actor, settings.assistant)
        ):
            permission = _permission(event.actor, permissions)
            if permission is not None and permission.is_maintainer:
                return DuplicateNotice(of=analysis.duplicate_of, outcome=DuplicateOutcome.OBJECTED)
    return DuplicateNotice(of=analysis.duplicate_of, outcome=DuplicateOutcome.OPEN)


def counted_thumbs_down(
    reactors: Iterable[Actor | None], settings: RuleSettings, permissions: Permissions
) -> int:
    """Distinct people with push access (WRITE, MAINTAIN, ADMIN) among the 👎 on the first analysis."""
    counted: set[str] = set()
    for actor in reactors:
        if not is_person(actor, settings.assistant):
            continue
        assert actor is not None
        permission = _permission(actor, permissions)
        if permission is not None and permission.is_pusher:
            counted.add(normalize_login(actor.login))
    return len(counted)


def duplicate_deciders(issue: Issue, analysis: Analysis, settings: RuleSettings) -> set[str]:
    """Logins whose permission decides the duplicate outcome (empty when it is already decided)."""
    if analysis.duplicate_of is None or is_confirmed_duplicate(issue):
        return set()
    logins: set[str] = set()
    for event in issue.events[analysis.index + 1 :]:
        if isinstance(event, Comment) and is_person(event.author, settings.assistant):
            assert event.author is not None
            logins.add(normalize_login(event.author.login))
        elif (
            isinstance(event, LabelChange)
            and event.kind == "unlabeled"
            and _is_duplicate_label(event.label, settings)
            and is_person(event.actor, settings.assistant)
        ):
            assert event.actor is not None
            logins.add(normalize_login(event.actor.login))
    return logins


def people_after(issue: Issue, analysis: Analysis, settings: RuleSettings) -> set[str]:
    """Every person who acted on the issue after the analysis (likely reactors: worth a look-up)."""
    logins: set[str] = set()
    for event in issue.events[analysis.index + 1 :]:
        actor = event.author if isinstance(event, Comment) else event.actor
        if is_person(actor, settings.assistant):
            assert actor is not None
            logins.add(normalize_login(actor.login))
    return logins


def correct(
    issue: Issue,
    analysis: Analysis,
    reactors: Sequence[Actor | None],
    settings: RuleSettings,
    permissions: Permissions,
) -> IssueCorrection:
    """All the rules on one issue of the window."""
    labels = corrected_labels(issue, analysis, settings)
    return IssueCorrection(
        number=issue.number,
        title=issue.title,
        labels_removed=labels.removed,
        labels_added=labels.added,
        duplicate=duplicate_outcome(issue, analysis, settings, permissions),
        thumbs_down=counted_thumbs_down(reactors, settings, permissions),
    )
