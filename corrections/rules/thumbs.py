"""The 👎 rule (docs/rules.md, "Thumbs down"): a 👎 on the first analysis counts once per pusher.

One file holds the rule: the decision (`thumbs_trace`), its trace (how each 👎 was read) and its
words: the phrase of a corrections.md line, explain's sentences and the quality report's count. A
renderer calls these; it never spells the rule's words itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from assistant.identity import is_person, normalize_login
from corrections.rules.models import Actor, IssueCorrection, Permission, Permissions, Reaction, Show
from corrections.rules.settings import RuleSettings


class ThumbRole(StrEnum):
    """How the rules read one 👎 on the first analysis."""

    NOT_A_PERSON = "not a person"
    PERMISSION_NOT_READ = "permission not read"
    NO_PUSH = "no push access"
    COUNTED_ALREADY = "counted once already"
    COUNTED = "counted"


@dataclass(frozen=True)
class ThumbStep:
    """One 👎 (who, and when if known) and whether it counted."""

    reaction: Reaction
    role: ThumbRole

    @property
    def actor(self) -> Actor | None:
        return self.reaction.actor


def _counts(permission: Permission) -> bool:
    """Whose 👎 counts: a pusher's (WRITE, MAINTAIN, ADMIN)."""
    return permission.is_pusher


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
        elif not _counts(permission):
            role = ThumbRole.NO_PUSH
        elif login in seen:
            role = ThumbRole.COUNTED_ALREADY
        else:
            seen.add(login)
            role = ThumbRole.COUNTED
        steps.append(ThumbStep(reaction, role))
    return tuple(steps)


# The words: what the rule found, as corrections.md, explain and quality.md say it.


def correction_words(correction: IssueCorrection, reason: str) -> list[str]:
    """The counted 👎 of a corrections.md line, if any; `reason` says where their reason is written."""
    if not correction.thumbs_down:
        return []
    people = "person" if correction.thumbs_down == 1 else "people"
    return [f"👎 from {correction.thumbs_down} {people} with push access{reason}"]


def month_words(counted: int, analyses: int) -> str:
    """A month's counted 👎 (quality.md), and on how many first analyses."""
    return (
        f"👎 counted (people with push access): {counted}, on "
        f"{analyses} {'analysis' if analyses == 1 else 'analyses'}"
    )


_ROLES = {
    ThumbRole.NOT_A_PERSON: "not a person, not counted",
    ThumbRole.PERMISSION_NOT_READ: "not counted",
    ThumbRole.NO_PUSH: "no push access, not counted",
    ThumbRole.COUNTED_ALREADY: "counted once already",
    ThumbRole.COUNTED: "counted",
}


def explain_lines(steps: Sequence[ThumbStep], read: bool, show: Show) -> list[str]:
    """`explain`'s lines on the 👎; `read`: whether GitHub answered with the reactions."""
    if not read:
        return ["👎 on the first analysis: not read (GitHub did not answer), none counted."]
    if not steps:
        return ["👎 on the first analysis: none."]
    return [
        f"👎 on the first analysis: {len(steps)}.",
        *(f"  {show.who(step.actor)}: {_ROLES[step.role]}" for step in steps),
    ]
