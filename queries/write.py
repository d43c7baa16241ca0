"""The mutation round trips of the write path, spaced and capped as GitHub asks.

GitHub asks for a pause of at least one second between mutations and limits content-creating
requests (docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api#pause-between-mutative-requests);
`Writer` waits that long between two mutations and refuses more than `max_mutations` in one run
(except mutations that undo what the run did, so a refusal never leaves a branch behind).
Every answer is parsed into its model (queries.write_models): one that lacks what was asked
(a created ref without its id) is a BadResponse. A mutation GitHub refuses (its field null
beside `errors`, or no data at all) raises WriteRefused with GitHub's error type: STALE_DATA when `expectedHeadOid` is not the branch's head, and
PULL_REQUESTS_NOT_PERMITTED when the workflow token may not open pull requests.
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from queries.answer import AnswerModel, parse_answer
from queries.client import GitHubClient
from queries.documents import operation
from queries.errors import BadResponse, NotFound, PermissionDenied, QueryRefused, WriteRefused
from queries.write_models import (
    AddCommentPayload,
    AddReactionPayload,
    CommitPayload,
    DeleteRefPayload,
    PullRequestPayload,
    RefPayload,
    UpdateIssueCommentPayload,
)

# GitHub's secondary limits on content-creating requests (comments, reactions, commits, pull requests):
# https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
CONTENT_PER_MINUTE = 80
CONTENT_PER_HOUR = 500
# A second between two mutations, as GitHub asks: at most 60 a minute, under its 80.
MIN_INTERVAL = 1.0
MAX_MUTATIONS = 8
# Reactions that answer commands, per run, apart from MAX_MUTATIONS: with them, under a quarter of
# the hour's 500, so the sync leaves room for the rest of the workflow's writes. The rest are owed
# to the next run, which gives them first.
MAX_ANSWERS = 100
# The time one mutation may take besides its pause (GitHub answers one in well under a second).
MUTATION_TIME = 0.5


def write_budget(max_mutations: int, max_answers: int, min_interval: float) -> float:
    """Seconds a run's writes may take: every mutation and answer its caps allow, each with its
    pause and its own time. So the time budget does not end the answers before their cap does:
    the pacing and the cap are what limit them."""
    return (max_mutations + max_answers) * (min_interval + MUTATION_TIME)


NOT_PERMITTED = "not permitted to create or approve pull requests"
PULL_REQUESTS_NOT_PERMITTED = "PULL_REQUESTS_NOT_PERMITTED"
STALE_DATA = "STALE_DATA"
MUTATION_CAP = "MUTATION_CAP"


def refusal(errors: object, what: str) -> WriteRefused:
    """The WriteRefused for GitHub's errors list of a refused mutation."""
    listed = [error for error in errors if isinstance(error, dict)] if isinstance(errors, list) else []
    message = "; ".join(str(error.get("message", "")) for error in listed)[:300] or "refused"
    types = [str(error.get("type") or "") for error in listed]
    if NOT_PERMITTED in message.lower():
        kind = PULL_REQUESTS_NOT_PERMITTED
    elif STALE_DATA in types:
        kind = STALE_DATA
    else:
        kind = next((name for name in types if name), "UNPROCESSABLE")
    return WriteRefused(f"{what}: {message}", error_type=kind, payload=listed)


Payload = TypeVar("Payload", bound=AnswerModel)


@dataclass(frozen=True)
class Created:
    """A node a mutation created or changed: its id and, where it has them, number and url."""

    id: str
    number: int | None = None
    url: str | None = None
    oid: str | None = None


class Writer:
    """Sends mutations one at a time, at least `min_interval` seconds apart, at most `max_mutations`.

    `sleep` and `clock` are injectable so tests need not wait; `times` holds when (by `clock`) each
    mutation was sent. `budget` is the seconds (by `clock`, from the writer's start) its client may
    spend: `fits` says whether one more mutation still fits in them.
    """

    def __init__(
        self,
        client: GitHubClient,
        *,
        min_interval: float = MIN_INTERVAL,
        max_mutations: int = MAX_MUTATIONS,
        max_answers: int = MAX_ANSWERS,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
        budget: float | None = None,
    ) -> None:
        self._client = client
        self._min_interval = min_interval
        self._max_mutations = max_mutations
        self._max_answers = max_answers
        self.answers = 0  # reactions sent, counted apart from the cap on other mutations
        self._sleep = sleep
        self._clock = clock
        self._budget = budget
        self._start = clock()
        self._last: float | None = None
        self.times: list[float] = []
        self.names: list[str] = []

    def fits(self) -> bool:
        """Whether one more mutation (its pause and its own time) fits in what is left of the budget."""
        if self._budget is None:
            return True
        return self._budget - (self._clock() - self._start) >= self._min_interval + MUTATION_TIME

    @property
    def count(self) -> int:
        """Mutations sent so far."""
        return len(self.times)

    async def _mutate(
        self,
        name: str,
        variables: Mapping[str, Any],
        field: str,
        payload_model: type[Payload],
        *,
        undo: bool = False,
        answering: bool = False,
    ) -> Payload:
        if answering and self.answers >= self._max_answers:
            raise WriteRefused(
                f"{name}: the cap of {self._max_answers} answers per run is reached", error_type=MUTATION_CAP
            )
        if not answering and self.count - self.answers >= self._max_mutations and not undo:
            raise WriteRefused(
                f"{name}: the cap of {self._max_mutations} mutations per run is reached",
                error_type=MUTATION_CAP,
            )
        self.answers += answering
        if self._last is not None:
            wait = self._min_interval - (self._clock() - self._last)
            if wait > 0:
                await self._sleep(wait)
        self.times.append(self._clock())
        self.names.append(name)
        try:
            answer = await self._client.execute(operation(name), variables)
        except (QueryRefused, PermissionDenied, NotFound) as error:
            if isinstance(error.payload, list) and error.payload:
                raise refusal(error.payload, name) from error
            raise
        finally:
            self._last = self._clock()
        payload = answer.data.get(field)
        if payload is None:
            if answer.errors:
                raise refusal(list(answer.errors), name)
            raise BadResponse(f"{name}: answer without {field}")
        return parse_answer(payload_model, payload, name)

    async def create_ref(self, repository_id: str, branch: str, oid: str) -> Created:
        """Create `refs/heads/<branch>` at `oid`."""
        variables = {"repositoryId": repository_id, "name": f"refs/heads/{branch}", "oid": oid}
        payload = await self._mutate("CreateRef", variables, "createRef", RefPayload)
        return Created(id=payload.ref.id, oid=oid)

    async def update_ref(self, ref_id: str, oid: str, *, force: bool, undo: bool = False) -> Created:
        """Point a branch at `oid` (`force` for a move that is not a fast-forward).

        `undo` marks a move that puts back what this run changed: it may pass the cap.
        """
        variables = {"refId": ref_id, "oid": oid, "force": force}
        payload = await self._mutate("UpdateRef", variables, "updateRef", RefPayload, undo=undo)
        target = payload.ref.target
        return Created(id=payload.ref.id, oid=target.oid if target is not None else None)

    async def delete_ref(self, ref_id: str, *, undo: bool = False) -> None:
        """Delete a branch; `undo` (deleting what this run created) may pass the cap."""
        await self._mutate("DeleteRef", {"refId": ref_id}, "deleteRef", DeleteRefPayload, undo=undo)

    async def create_commit(
        self,
        name_with_owner: str,
        branch: str,
        *,
        expected_head: str,
        headline: str,
        body: str,
        files: Mapping[str, str],
    ) -> str:
        """One commit of whole files (path -> text) on `branch`; returns its oid.

        Raises WriteRefused with error_type STALE_DATA when the branch is no longer at `expected_head`.
        """
        additions = [
            {"path": path, "contents": base64.b64encode(text.encode("utf-8")).decode("ascii")}
            for path, text in files.items()
        ]
        variables = {
            "repositoryNameWithOwner": name_with_owner,
            "branchName": branch,
            "expectedHeadOid": expected_head,
            "headline": headline,
            "body": body,
            "additions": additions,
        }
        payload = await self._mutate("CreateCommitOnBranch", variables, "createCommitOnBranch", CommitPayload)
        return payload.commit.oid

    async def create_pull_request(
        self, repository_id: str, base: str, head: str, title: str, body: str
    ) -> Created:
        """Open a pull request from `head` into `base`.

        Raises WriteRefused with error_type PULL_REQUESTS_NOT_PERMITTED when the token may not.
        """
        variables = {
            "repositoryId": repository_id,
            "baseRefName": base,
            "headRefName": head,
            "title": title,
            "body": body,
        }
        payload = await self._mutate("CreatePullRequest", variables, "createPullRequest", PullRequestPayload)
        pull = payload.pull_request
        return Created(id=pull.id, number=pull.number, url=pull.url)

    async def update_pull_request(self, pull_id: str, body: str) -> Created:
        """Replace a pull request's body."""
        payload = await self._mutate(
            "UpdatePullRequest",
            {"pullRequestId": pull_id, "body": body},
            "updatePullRequest",
            PullRequestPayload,
        )
        pull = payload.pull_request
        return Created(id=pull.id, number=pull.number, url=pull.url)

    async def add_comment(self, subject_id: str, body: str) -> Created:
        """Comment on an issue or pull request as the token's owner."""
        payload = await self._mutate(
            "AddComment", {"subjectId": subject_id, "body": body}, "addComment", AddCommentPayload
        )
        comment = payload.comment_edge.node
        return Created(id=comment.id, number=comment.database_id)

    async def update_issue_comment(self, comment_id: str, body: str) -> Created:
        """Replace the body of one of the token owner's comments."""
        payload = await self._mutate(
            "UpdateIssueComment",
            {"id": comment_id, "body": body},
            "updateIssueComment",
            UpdateIssueCommentPayload,
        )
        comment = payload.issue_comment
        return Created(id=comment.id, number=comment.database_id)

    async def add_reaction(self, subject_id: str, content: str) -> None:
        """React to a comment as the token's owner (the sync's answer to a command), within the
        answers' own cap."""
        await self._mutate(
            "AddReaction",
            {"subjectId": subject_id, "content": content},
            "addReaction",
            AddReactionPayload,
            answering=True,
        )
