"""Learnings for the decisions maintainers made again and again, proposed in the sync's pull request.

A recurring decision (found by the corrections' own rules, corrections/quality/recurring.py) is a
sentence that says what maintainers decided and the issues they decided it on. The sync records it
like any other learning but in its pull request only: nothing reaches the default branch until a
maintainer merges that pull request, which is the review. Its text starts with the decision and
ends with the issues behind it, so a reviewer sees the evidence in the diff; a decision that is
already a learning (active or retired: a retired one was refused or outlived) is not proposed
again, even when more issues stand behind it now.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from assistant.config import Config
from learnings.rules.model import Learning, Source
from learnings.sync.gather import Candidate

# The first words of every recurring learning, so a reader (and the check below) knows it for one.
LEAD = "Recurring correction: "
# How many of the issues behind a decision its text names (the newest); the count says the rest.
NAMED = 5


@dataclass(frozen=True)
class Recurring:
    """One decision maintainers made on several issues: `decision` one sentence without the
    issues (the same words each week), `issues` the issues behind it, newest first."""

    decision: str
    issues: tuple[int, ...]

    @property
    def text(self) -> str:
        """The learning's text: the decision, then the issues behind it."""
        named = ", ".join(f"#{number}" for number in self.issues[:NAMED])
        more = f" and {len(self.issues) - NAMED} more" if len(self.issues) > NAMED else ""
        return f"{LEAD}{self.decision} (maintainers decided so on {len(self.issues)} issues: {named}{more})."


# What `corrections sync` gives the sync: the recurring decisions of (owner, name), read with the
# token under the configuration.
Decisions = Callable[[str, str, str, Config], Sequence[Recurring]]


def _decided(learning: Learning) -> str | None:
    """The decision of a recurring learning (its text without the issues), else None."""
    text = learning.text
    if not text.startswith(LEAD) or " (maintainers decided so on " not in text:
        return None
    return text[len(LEAD) :].rsplit(" (maintainers decided so on ", 1)[0]


def recurring_candidates(recurring: Iterable[Recurring], *stores: Sequence[Learning]) -> list[Candidate]:
    """Candidates for the decisions no store (the default branch's, the sync branch's) holds yet."""
    known = {decision for store in stores for learning in store if (decision := _decided(learning))}
    return [
        Candidate(source=Source(issue=found.issues[0]), text=found.text)
        for found in recurring
        if found.issues and found.decision not in known
    ]
