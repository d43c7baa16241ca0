"""The sync's answer to each command, given once: a reaction of its own account on the comment.

🚀 (ROCKET) when the command's learning is in the sync's pull request (or already was, word for
word), 👀 (EYES) when it was read and refused for good: its author cannot push, or an
`ignore-rule` names no finding of the assistant there. The notes of the run say why. A command
whose author's permission could not be read is not answered: the next run decides it. GitHub is
the record of what was answered: a comment the token's own account already reacted to with either
is never answered again (`viewerHasReacted`, read with the comments).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from assistant.identity import normalize_login
from learnings.gather import Candidate, Found
from queries.errors import GitHubError
from queries.write import Writer

RECORDED = "ROCKET"
REFUSED = "EYES"
ANSWERS = frozenset({RECORDED, REFUSED})


@dataclass(frozen=True)
class Answer:
    """One reaction to give: on which comment (its node id), and which."""

    node_id: str
    content: str


def answers(
    found: Found,
    candidates: Sequence[Candidate],
    permissions: Mapping[str, str],
    earlier: Sequence[Answer] = (),
) -> list[Answer]:
    """The answers still owed: `earlier` ones (a run's cap left them), then one per comment with
    commands, in the order found; one per comment."""
    accepted = {candidate.source.comment for candidate in candidates}
    owed = {answer.node_id: answer for answer in earlier}
    for command in found.commands:
        node = command.node_id
        if node in owed or not node or command.answered & ANSWERS:
            continue
        if command.comment in accepted:
            owed[node] = Answer(node, RECORDED)
        elif normalize_login(command.author) in permissions:
            owed[node] = Answer(node, REFUSED)
    return list(owed.values())


async def give(writer: Writer, owed: Sequence[Answer]) -> list[str]:
    """Send the answers, spaced as the writer spaces mutations; notes on what could not be sent.

    An answer that fails ends the answering (the rest are owed to the next run): answers never
    fail the sync.
    """
    for index, answer in enumerate(owed):
        try:
            await writer.add_reaction(answer.node_id, answer.content)
        except GitHubError as error:
            left = len(owed) - index
            return [f"{left} command(s) not answered yet ({error.category}); the next run answers them"]
    return []
