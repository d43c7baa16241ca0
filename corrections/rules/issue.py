"""The trace of one issue: which comments are analyses, and every rule run on the first one.

`trace` runs the rules (corrections/rules/labels.py, duplicates.py, thumbs.py: each holds its
decision, its trace roles and its words) and `IssueTrace.correction` sums them into the
IssueCorrection that both the context (corrections.md) and the quality numbers use, so what
maintainers see measured is what the assistant learns from; `explain` puts the same trace into
words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from assistant.identity import is_assistant, is_person, normalize_login
from corrections.rules.duplicates import DuplicateTrace, duplicate_trace
from corrections.rules.labels import LabelOutcome, LabelTrace, label_traces
from corrections.rules.markers import MarkerError, has_analysis_marker, parse_analysis
from corrections.rules.models import (
    Actor,
    Analysis,
    Comment,
    Issue,
    IssueCorrection,
    Permissions,
    Reaction,
)
from corrections.rules.settings import RuleSettings
from corrections.rules.thumbs import ThumbRole, ThumbStep, thumbs_trace

# An analysis a maintainer hid on GitHub for one of these reasons (`minimizedReason`) is not
# counted: hiding it as noise says it should not have been posted, so its labels are no example
# kept and it is no analysis of the window. Hidden as outdated, resolved or a duplicate comment (or
# without a reason) it counts as before: those say the thread moved on, not that it was wrong.
NOT_COUNTED_WHEN_HIDDEN = frozenset({"OFF_TOPIC", "SPAM", "ABUSE"})


def analyses(issue: Issue, settings: RuleSettings) -> tuple[list[Analysis], list[str]]:
    """Every analysis on the issue, in timeline order, and a warning per marker that does not parse
    or is not where a marker counts (the first or last thing in its comment), and per analysis
    not counted because a maintainer hid it (NOT_COUNTED_WHEN_HIDDEN)."""
    found: list[Analysis] = []
    warnings: list[str] = []
    for index, event in enumerate(issue.events):
        if not isinstance(event, Comment):
            continue
        misplaced: list[str] = []
        try:
            analysis = parse_analysis(event, index, settings.assistant, misplaced, number=issue.number)
        except MarkerError as error:
            analysis = None
            misplaced.append(str(error))
        warnings.extend(f"#{issue.number} {warning}" for warning in misplaced)
        if analysis is not None and event.hidden in NOT_COUNTED_WHEN_HIDDEN:
            reason = event.hidden.lower().replace("_", "-")
            where = f"comment {event.database_id}" if event.database_id is not None else "a comment"
            warnings.append(f"#{issue.number} {where}: analysis hidden on GitHub as {reason}; not counted")
        elif analysis is not None:
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


@dataclass(frozen=True)
class IssueTrace:
    """Every decision of the rules on one issue with a first analysis."""

    number: int
    title: str
    analysis: Analysis
    labels: tuple[LabelTrace, ...]  # vocabulary order
    duplicate: DuplicateTrace | None
    thumbs: tuple[ThumbStep, ...]

    def _names(self, outcome: LabelOutcome) -> tuple[str, ...]:
        return tuple(sorted(label.name for label in self.labels if label.outcome is outcome))

    @property
    def removed(self) -> tuple[str, ...]:
        return self._names(LabelOutcome.REMOVED)

    @property
    def added(self) -> tuple[str, ...]:
        return self._names(LabelOutcome.ADDED)

    @property
    def kept(self) -> tuple[str, ...]:
        return self._names(LabelOutcome.KEPT)

    @property
    def put_forward(self) -> tuple[str, ...]:
        """The base of "kept" in the quality numbers: removed or kept, never added."""
        return tuple(sorted(label.name for label in self.labels if label.put_forward))

    @property
    def counted(self) -> tuple[Actor, ...]:
        """The 👎 that count (corrections/rules/thumbs.py)."""
        return tuple(step.actor for step in self.thumbs if step.role is ThumbRole.COUNTED and step.actor)

    @property
    def decided_at(self) -> datetime | None:
        """When the latest correcting event happened: the last person's event that decided a label
        correction, the objection to the duplicate notice, or the latest counted 👎."""
        moments = [label.decided_at for label in self.labels]
        if self.duplicate is not None and self.duplicate.deciding is not None:
            moments.append(self.duplicate.deciding.event.at)
        moments += [step.reaction.at for step in self.thumbs if step.role is ThumbRole.COUNTED]
        return max((moment for moment in moments if moment is not None), default=None)

    def correction(self) -> IssueCorrection:
        """What the context and the quality numbers hold of this issue."""
        return IssueCorrection(
            number=self.number,
            title=self.title,
            labels_removed=self.removed,
            labels_added=self.added,
            duplicate=None if self.duplicate is None else self.duplicate.notice,
            thumbs_down=len(self.counted),
            put_forward=self.put_forward,
            corrected_at=self.decided_at,
        )


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
