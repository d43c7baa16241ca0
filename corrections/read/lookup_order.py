"""Whose permission the reader looks up first, from what the issues it read show.

At most 30 people are looked up through REST in a run, so the order decides who is counted. It is
never the strangers' choice (queries.requests.lookup_order): first the people who labelled,
closed, reopened or marked an issue read (what GitHub lets triagers do, mostly), then those whose
comments GitHub marks OWNER, MEMBER or COLLABORATOR (an order only, never proof), then the rest.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from assistant.identity import Identity, is_person, normalize_login
from corrections.rules.models import Comment, Issue
from queries.requests import RELATED, lookup_order


@dataclass(frozen=True)
class Signals:
    """What the issues read say about people: who triaged, and each commenter's association."""

    triagers: frozenset[str]
    associations: dict[str, str]

    @classmethod
    def of(cls, issues: Iterable[Issue], assistant: Identity) -> Signals:
        """The signals of every event of `issues` (normalised logins)."""
        triagers: set[str] = set()
        associations: dict[str, str] = {}
        for issue in issues:
            for event in issue.events:
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
