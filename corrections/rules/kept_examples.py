"""Issues maintainers labelled themselves: the examples a prompt gives before any correction.

Until maintainers have corrected the assistant, its window teaches nothing; but a repository's own
labelling does. A scanned issue is a kept example when it has no first analysis of the assistant
and labels of labels.md stand on it, as its timeline read leaves them, each last put there by a
person (a User who is not the assistant; no bot, app or workflow): GitHub lets only people with
triage access label an issue, so each is a maintainer's own decision. A person's closing, other
than its author's, as not planned or as a duplicate is kept beside the labels: that is a decision
too. Nothing else of the issue counts, and nothing here reads text: the title is only carried.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from assistant.identity import is_person
from corrections.rules.issue import analyses
from corrections.rules.models import Closed, Issue, LabelChange, Reopened
from corrections.rules.settings import RuleSettings

# The closings that say something about the issue (COMPLETED says nothing a label does not).
TELLING_CLOSINGS = {"NOT_PLANNED": "closed as not planned", "DUPLICATE": "closed as a duplicate"}


@dataclass(frozen=True)
class KeptExample:
    """One issue as its maintainers left it: its labels of labels.md, and a telling closing."""

    number: int
    title: str
    labels: tuple[str, ...]  # in the order they were applied
    closed: str | None  # the words of TELLING_CLOSINGS, or None
    updated_at: datetime


def _standing_labels(issue: Issue, settings: RuleSettings) -> tuple[str, ...]:
    """Labels of labels.md on the issue after its timeline, each last added by a person."""
    standing: dict[str, bool] = {}  # canonical name -> last added by a person
    for event in issue.events:
        if not isinstance(event, LabelChange):
            continue
        name = settings.vocabulary.canonical(event.label)
        if name is None or settings.is_duplicate_label(name):
            continue
        if event.kind == "unlabeled":
            standing.pop(name, None)
        else:
            standing.pop(name, None)  # re-added: its place is the latest
            standing[name] = is_person(event.actor, settings.assistant)
    return tuple(name for name, by_person in standing.items() if by_person)


def _closing(issue: Issue, settings: RuleSettings) -> str | None:
    """The words of the last closing when a person other than the author made it and it stands."""
    last: Closed | None = None
    for event in issue.events:
        if isinstance(event, Closed):
            last = event
        elif isinstance(event, Reopened):
            last = None
    if last is None or not is_person(last.actor, settings.assistant):
        return None
    if issue.author is not None and last.actor is not None and last.actor.login == issue.author.login:
        return None
    return TELLING_CLOSINGS.get(last.state_reason or "")


def may_be_example(issue: Issue, settings: RuleSettings) -> bool:
    """Whether a person ever put a label of labels.md on the issue: the read keeps such issues, so
    that the context as of an earlier moment can decide on them as they then stood."""
    return any(
        isinstance(event, LabelChange)
        and event.kind == "labeled"
        and settings.vocabulary.canonical(event.label) is not None
        and is_person(event.actor, settings.assistant)
        for event in issue.events
    )


def kept_example(issue: Issue, settings: RuleSettings) -> KeptExample | None:
    """The issue as a kept example, or None (an analysis of the assistant, or no maintainer's label)."""
    found, _warnings = analyses(issue, settings)
    if found:
        return None
    labels = _standing_labels(issue, settings)
    if not labels:
        return None
    return KeptExample(issue.number, issue.title, labels, _closing(issue, settings), issue.updated_at)
