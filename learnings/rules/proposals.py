"""Learning proposals: the assistant's comments that offer a learning, accepted only by a pusher's 👍.

A proposal is the marker `<!-- assistant:learning-proposal {"v": 1, "text": "...", "paths": [...],
"category": null} -->` in a comment whose author is the assistant (a marker in anyone else's
comment is ignored: anyone can type one). It becomes a learning when a pusher reacted 👍
(THUMBS_UP); a pusher's 👎 rejects it, even beside a 👍, so one pusher can stop a learning that
another waved through. Reactions of people who cannot push do not count.

A pusher approves what they see, so a proposal counts only when (docs/security.md):

- its comment carries no other marker (an analysis comment is never a proposal, whatever a prompt
  injection made the assistant hide in it);
- what it records is what the comment shows (`shown_as_written`): its text is the whole visible
  text of one paragraph or heading of the comment as GitHub renders it (assistant.markdown.visible_texts: not in
  HTML, a link reference definition, a title or alt text, a `<details>` body, nor inside a longer
  sentence such as "I will never assume: TEXT"); its paths, when it has any, are the whole of
  another, `Paths: GLOB, GLOB`; its category, when it has one, the whole of another,
  `Category: NAME` (white space folded in each);
- the comment was not edited after the 👍 that accepts it (an older 👍 approved another text).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from assistant.identity import normalize_login
from assistant.markdown import fold_spaces, visible_texts
from assistant.markers import find_markers, json_payload, marker
from assistant.untrusted import escape_markdown, inline_code
from queries.sync_fetch import Reactor

NAME = "learning-proposal"
# The fixed lead-ins of the paragraphs that show a proposal's paths and category.
PATHS_LEAD = "Paths:"
CATEGORY_LEAD = "Category:"


class ProposalError(ValueError):
    """A proposal that cannot count; the message says why in fixed words."""


class Proposal(BaseModel):
    """What the assistant proposed to remember."""

    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)

    v: Literal[1]
    text: Annotated[str, Field(min_length=1)]
    paths: tuple[str, ...] = ()
    category: str | None = None


def parse_proposal(body: str) -> Proposal | None:
    """The proposal in a comment body (the caller checks first that the assistant wrote it).

    Raises ProposalError when the body has a proposal marker that does not parse, that shares the
    comment with another marker, or whose text, paths or category the comment does not show.
    """
    markers = list(find_markers(body))
    found = [found for found in markers if found.name == NAME]
    if not found:
        return None
    if len(markers) > 1:
        others = sorted({found.name for found in markers if found.name != NAME})
        what = ", ".join(others) if others else "a second proposal"
        raise ProposalError(f"learning proposal in a comment that carries another marker ({what})")
    try:
        proposal = Proposal.model_validate_json(found[0].payload)
    except ValidationError as error:
        first = error.errors()[0] if error.errors() else None
        where = ".".join(str(part) for part in first["loc"]) if first else ""
        raise ProposalError(f"learning proposal marker does not parse (at `{where}`)") from error
    hidden = not_shown(proposal, body)
    if hidden is not None:
        raise ProposalError(
            f"learning proposal whose {hidden} is not shown as the visible text of its own paragraph"
        )
    return proposal


def _shown(proposal: Proposal) -> dict[str, str]:
    """What must be the visible text of a paragraph of its own, by what it is."""
    wanted = {"text": fold_spaces(proposal.text)}
    if proposal.paths:
        wanted["paths"] = fold_spaces(f"{PATHS_LEAD} {', '.join(proposal.paths)}")
    if proposal.category is not None:
        wanted["category"] = fold_spaces(f"{CATEGORY_LEAD} {proposal.category}")
    return wanted


def not_shown(proposal: Proposal, body: str) -> str | None:
    """What of the proposal (`text`, `paths`, `category`) the comment does not show, or None."""
    blocks = set(visible_texts(body))
    return next((what for what, text in _shown(proposal).items() if text not in blocks), None)


def proposal_marker(text: str, paths: Sequence[str] = (), category: str | None = None) -> str:
    """The hidden marker of a proposal, as the assistant writes it."""
    return marker(NAME, json_payload({"v": 1, "text": text, "paths": list(paths), "category": category}))


def proposal_comment(intro: str, text: str, paths: Sequence[str] = (), category: str | None = None) -> str:
    """A whole proposal comment as the assistant writes it: what it records shown, then the marker.

    The text is a quote of its own; paths and category, when there are any, a list item each
    (`Paths: `src/**``, `Category: `style``), so that each is the whole of its own paragraph.
    """
    shown = [intro, f"> {escape_markdown(fold_spaces(text))}"]
    listed = []
    if paths:
        listed.append(f"- {PATHS_LEAD} {', '.join(inline_code(path) for path in paths)}")
    if category is not None:
        listed.append(f"- {CATEGORY_LEAD} {inline_code(category)}")
    if listed:
        shown.append("\n".join(listed))
    return "\n\n".join([*shown, proposal_marker(text, paths, category)]) + "\n"


@dataclass(frozen=True)
class Verdict:
    """What the pushers' reactions decided.

    accepted (by whom), rejected (by whom), pending, or edited: a pusher's 👍 (by whom) was given
    before the comment's last edit, so it approved another text.
    """

    outcome: Literal["accepted", "rejected", "pending", "edited"]
    by: str | None = None


def verdict(
    thumbs_up: Sequence[Reactor],
    thumbs_down: Sequence[Reactor],
    pushers: Collection[str],
    edited_at: datetime | None = None,
) -> Verdict:
    """The outcome of a proposal from its 👍 and 👎 (in reaction order), the pushers, and its last edit.

    `pushers` holds normalized logins (assistant.identity.normalize_login). A 👍 counts only when
    it is strictly later than `edited_at` (GitHub gives both to the second: a 👍 in the edit's own
    second may have approved the text before it); a 👍 whose time is unknown counts only on a
    comment never edited.
    """
    for reaction in thumbs_down:
        if normalize_login(reaction.login) in pushers:
            return Verdict("rejected", reaction.login)
    stale: str | None = None
    for reaction in thumbs_up:
        if normalize_login(reaction.login) not in pushers:
            continue
        if edited_at is None or (reaction.at is not None and reaction.at > edited_at):
            return Verdict("accepted", reaction.login)
        stale = stale or reaction.login
    return Verdict("edited", stale) if stale is not None else Verdict("pending")
