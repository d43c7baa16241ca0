"""Reading and writing a pull request's memory through GitHub (the round trips are in queries/).

`load_memory` reads the pull request's comments (newest pages first) and finds the assistant's
snapshot; `save_memory` updates the assistant's memory comment (`updateIssueComment`) or adds one
(`addComment`) when there is none. The token must act as the assistant: only its own comments are
read back.
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.identity import Identity
from assistant.markers import NO_KEY
from learnings.prompt.pr_memory import FoundMemory, MemoryMarkerError, PrMemory, comment_body, find_memory
from queries.client import GitHubClient
from queries.sync_fetch import fetch_pull_comments
from queries.write import Created, Writer


@dataclass(frozen=True)
class PullMemory:
    """A pull request's node id and what its comments hold."""

    pull_id: str
    found: FoundMemory


async def load_memory(
    client: GitHubClient, owner: str, name: str, number: int, assistant: Identity
) -> PullMemory:
    """The memory of pull request `number` (None inside when no run left one).

    Raises queries.errors.GitHubError (NotFound for a missing pull request).
    """
    pull = await fetch_pull_comments(client, owner, name, number)
    found = find_memory(pull.comments.read, number, assistant)
    if found.memory is None and pull.older_comments:
        found = FoundMemory(
            memory=None,
            comment_id=found.comment_id,
            comment_body=found.comment_body,
            warnings=(*found.warnings, "older comments were not read; a memory there is not seen"),
            off=found.off,
        )
    return PullMemory(pull_id=pull.id, found=found)


async def save_memory(writer: Writer, pull: PullMemory, memory: PrMemory, assistant: Identity) -> Created:
    """Write the snapshot, sealed with the marker key when there is one, into the assistant's
    memory comment, or add that comment. Raises MemoryMarkerError when memory is off (a shared
    account without the key: its comment could be any workflow's, and no later run would read it)."""
    if pull.found.off:
        raise MemoryMarkerError(f"PR memory is {NO_KEY}")
    body = comment_body(memory, pull.found.comment_body, assistant.marker_key)
    if pull.found.comment_id is not None:
        return await writer.update_issue_comment(pull.found.comment_id, body)
    return await writer.add_comment(pull.pull_id, body)
