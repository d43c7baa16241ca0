"""`learnings propose`: the assistant offers a learning as a comment that the sync accepts after a
pusher's 👍 (learnings.rules.proposals says what it accepts).

`proposal_body` writes the comment in the exact visible form the sync reads back (its text a
paragraph of its own, then `Paths:` and `Category:`, then the hidden marker) and checks it by the
sync's own reading (`parse_proposal`), so a proposal that would never count is refused before it
is posted. `propose` posts it as the token's account on an issue or pull request: the review
engine calls it when a maintainer replies to a finding; the command line calls it for people and
workflows. The token must act as the assistant: the sync counts proposals only from its login.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import TypeAdapter, ValidationError

from learnings.rules.globs import GlobError, check_globs
from learnings.rules.model import Category
from learnings.rules.proposals import ProposalError, parse_proposal, proposal_comment
from queries.client import GitHubClient
from queries.subject import fetch_subject_id
from queries.write import Created, Writer

INTRO = (
    "I propose to remember this for later analyses. A maintainer with push access keeps it with a "
    "👍 on this comment (👎 refuses it); `learnings sync` then adds it to its pull request."
)
_CATEGORY: TypeAdapter[str] = TypeAdapter(Category)


class ProposeError(ValueError):
    """A proposal that the sync could never accept; the message says why in one line."""


def proposal_body(
    text: str, paths: Sequence[str] = (), category: str | None = None, intro: str = INTRO
) -> str:
    """The proposal comment, checked by the sync's own reading; raises ProposeError."""
    if not text.strip():
        raise ProposeError("the proposal's text is blank")
    try:
        globs = check_globs(tuple(paths))
    except GlobError as error:
        raise ProposeError(f"--paths: {error}") from error
    if category is not None:
        try:
            _CATEGORY.validate_python(category)
        except ValidationError as error:
            raise ProposeError(f"--category {category!r}: not a category name") from error
    body = proposal_comment(intro, text, globs, category)
    try:
        read = parse_proposal(body)
    except ProposalError as error:
        raise ProposeError(str(error)) from error
    if read is None or (read.text, read.paths, read.category) != (text, globs, category):
        raise ProposeError("the proposal would not read back as written")
    return body


async def propose(
    client: GitHubClient,
    writer: Writer,
    repository: tuple[str, str],
    number: int,
    body: str,
) -> Created:
    """Post the proposal comment `body` (from proposal_body) on issue or pull request `number`.

    Raises queries.errors.GitHubError (NotFound when the token cannot see `number`).
    """
    owner, name = repository
    subject = await fetch_subject_id(client, owner, name, number)
    return await writer.add_comment(subject, body)
