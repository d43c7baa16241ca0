"""Whose permission the reader looks up first, from what the issues it read show.

At most 30 people are looked up through REST in a run, so the order decides who is counted. It is
never the strangers' choice (queries.requests.lookup_order): first the people who labelled,
closed, reopened or marked an issue read (what GitHub lets triagers do, mostly), then those whose
comments GitHub marks OWNER, MEMBER or COLLABORATOR (an order only, never proof), then the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from assistant.identity import is_person, normalize_login
from corrections.read.issue_read import IssueRead
from corrections.rules.models import Comment
from corrections.rules.settings import RuleSettings
from queries.requests import RELATED, lookup_order


class _Reading(Protocol):
    """What of the reading the order needs (corrections.read.reading.Reading)."""

    @property
    def settings(self) -> RuleSettings: ...

    def scanned(self) -> Sequence[IssueRead]: ...


@dataclass(frozen=True)
class Signals:
    """What the issues read say about people: who triaged, and each commenter's association."""

    triagers: frozenset[str]
    associations: dict[str, str]

    @classmethod
    def of(cls, reading: _Reading) -> Signals:
        """The signals of every event of the issues read (normalised logins)."""
        triagers: set[str] = set()
        associations: dict[str, str] = {}
        assistant = reading.settings.assistant
        for read in reading.scanned():
            for event in read.issue.events:
                if isinstance(event, Comment):
                    if event.author is not None and event.association:
                        associations.setdefault(normalize_login(event.author.login), event.association)
                elif is_person(event.actor, assistant):
                    assert event.actor is not None
                    triagers.add(normalize_login(event.actor.login))
        return cls(frozenset(triagers), associations)

    def ordered(self, logins: Iterable[str]) -> list[str]:
        """`logins` in the order their permission is looked up."""
        return lookup_order(logins, first=self.triagers, associations=self.associations)

    def favoured(self) -> set[str]:
        """The people looked up before the rest: a part of the cap on look-ups stays theirs, for
        those seen late (a 👎 on a later page of reactions)."""
        related = {login for login, value in self.associations.items() if value.upper() in RELATED}
        return set(self.triagers) | related
