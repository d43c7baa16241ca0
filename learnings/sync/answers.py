"""The sync's answer to each command, given once: a reaction of its own account on the comment.

🚀 (ROCKET) when the command's learning is in the sync's pull request (or already was, word for
word), 👀 (EYES) when it was read and refused for good: its author cannot push, or an
`ignore-rule` names no finding of the assistant there. The notes of the run say why. A command
whose author's permission could not be read is not answered: the next run decides it. GitHub is
the record of what was answered: a comment the token's own account already reacted to with either
is never answered again (`viewerHasReacted`, read with the comments).

An answer is owed until it is given: the sync's mark lists every answer owed when the run starts
answering, the next run gives those still owed first (learnings.sync.run), and an answer the token
already gave is never given again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from assistant.identity import normalize_login
from learnings.sync.gather import Candidate, Found
from queries.errors import GitHubError
from queries.sync_fetch import Thread
from queries.sync_models import ThreadComment
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


def kept_owed(owed: Sequence[Answer], kept: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """What the mark keeps of the answers owed: all of them, until given. When the mark already
    keeps them all (and perhaps some given since), it stays as it is: the next run reads given
    ones back as given, and a run with nothing else new writes nothing."""
    owing = tuple((answer.node_id, answer.content) for answer in owed)
    return tuple(kept) if set(owing) <= set(kept) else owing


def read_by_id(thread: Thread) -> ThreadComment:
    """The one comment, review body or review thread comment of a thread read again by id."""
    if thread.comments:
        return thread.comments[0]
    return thread.reviews[0] if thread.reviews else thread.review_threads[0][-1]


async def give(writer: Writer, owed: Sequence[Answer]) -> list[Answer]:
    """Send the answers in order, spaced as the writer spaces mutations; returns those still owed.

    Answering stops, owing the rest to the next run, at the first answer that fails, at the cap on
    answers, or when the writer's time budget cannot hold one more answer: answers never fail the
    sync.
    """
    for index, answer in enumerate(owed):
        if not writer.fits():
            return list(owed[index:])
        try:
            await writer.add_reaction(answer.node_id, answer.content)
        except GitHubError:
            return list(owed[index:])
    return []
