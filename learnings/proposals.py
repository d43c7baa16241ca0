"""Learning proposals: the assistant's comments that offer a learning, accepted only by a pusher's 👍.

A proposal is the marker `<!-- assistant:learning-proposal {"v": 1, "text": "...", "paths": [...],
"category": null} -->` in a comment whose author is the assistant (a marker in anyone else's
comment is ignored: anyone can type one). It becomes a learning when a pusher reacted 👍
(THUMBS_UP); a pusher's 👎 rejects it, even beside a 👍, so one pusher can stop a learning that
another waved through. Reactions of people who cannot push do not count.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from corrections.markers import normalize_login
from learnings.hidden import json_payload, marker, payloads

NAME = "learning-proposal"


class ProposalError(ValueError):
    """A proposal marker that does not parse; the message says why in fixed words."""


class Proposal(BaseModel):
    """What the assistant proposed to remember."""

    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)

    v: Literal[1]
    text: Annotated[str, Field(min_length=1)]
    paths: tuple[str, ...] = ()
    category: str | None = None


def parse_proposal(body: str) -> Proposal | None:
    """The proposal in a comment body (the caller checks that the assistant wrote it).

    Raises ProposalError when the body has a proposal marker that does not parse.
    """
    found = payloads(body, NAME)
    if not found:
        return None
    try:
        return Proposal.model_validate_json(found[0])
    except ValidationError as error:
        first = error.errors()[0] if error.errors() else None
        where = ".".join(str(part) for part in first["loc"]) if first else ""
        raise ProposalError(f"learning proposal marker does not parse (at `{where}`)") from error


def proposal_marker(text: str, paths: Sequence[str] = (), category: str | None = None) -> str:
    """The hidden marker of a proposal, as the assistant writes it."""
    return marker(NAME, json_payload({"v": 1, "text": text, "paths": list(paths), "category": category}))


@dataclass(frozen=True)
class Verdict:
    """What the pushers' reactions decided: accepted (by whom), rejected (by whom), or pending."""

    outcome: Literal["accepted", "rejected", "pending"]
    by: str | None = None


def verdict(thumbs_up: Sequence[str], thumbs_down: Sequence[str], pushers: Collection[str]) -> Verdict:
    """The outcome of a proposal from its 👍 and 👎 reactors (in reaction order) and the pushers.

    `pushers` holds normalized logins (corrections.markers.normalize_login).
    """
    for login in thumbs_down:
        if normalize_login(login) in pushers:
            return Verdict("rejected", login)
    for login in thumbs_up:
        if normalize_login(login) in pushers:
            return Verdict("accepted", login)
    return Verdict("pending")
