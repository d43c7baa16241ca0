"""The mutation round trips of the write path, spaced and capped as GitHub asks.

GitHub asks for a pause of at least one second between mutations and limits content-creating
requests (docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api#pause-between-mutative-requests);
`Writer` waits that long between two mutations and refuses more than `max_mutations` in one run
(except mutations that undo what the run did, so a refusal never leaves a branch behind).
A mutation GitHub refuses (its field null beside `errors`, or no data at all) raises WriteRefused
with GitHub's error type: STALE_DATA when `expectedHeadOid` is not the branch's head, and
PULL_REQUESTS_NOT_PERMITTED when the workflow token may not open pull requests.
"""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from queries.client import GitHubClient
from queries.documents import operation
from queries.errors import BadResponse, NotFound, PermissionDenied, QueryRefused, WriteRefused

MIN_INTERVAL = 1.0
MAX_MUTATIONS = 8
NOT_PERMITTED = "not permitted to create or approve pull requests"
PULL_REQUESTS_NOT_PERMITTED = "PULL_REQUESTS_NOT_PERMITTED"
STALE_DATA = "STALE_DATA"
MUTATION_CAP = "MUTATION_CAP"


def refusal(errors: Any, what: str) -> WriteRefused:
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
    mutation was sent.
    """

    def __init__(
        self,
        client: GitHubClient,
        *,
        min_interval: float = MIN_INTERVAL,
        max_mutations: int = MAX_MUTATIONS,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._min_interval = min_interval
        self._max_mutations = max_mutations
        self._sleep = sleep
        self._clock = clock
        self._last: float | None = None
        self.times: list[float] = []
        self.names: list[str] = []

    @property
    def count(self) -> int:
        """Mutations sent so far."""
        return len(self.times)

    async def _mutate(
        self, name: str, variables: Mapping[str, Any], field: str, *, undo: bool = False
    ) -> dict[str, Any]:
        if self.count >= self._max_mutations and not undo:
            raise WriteRefused(
                f"{name}: the cap of {self._max_mutations} mutations per run is reached",
                error_type=MUTATION_CAP,
            )
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
        if not isinstance(payload, dict):
            if answer.errors:
                raise refusal(list(answer.errors), name)
            raise BadResponse(f"{name}: answer without {field}")
        return payload

    async def create_ref(self, repository_id: str, branch: str, oid: str) -> Created:
        """Create `refs/heads/<branch>` at `oid`."""
        variables = {"repositoryId": repository_id, "name": f"refs/heads/{branch}", "oid": oid}
        payload = await self._mutate("CreateRef", variables, "createRef")
        ref = payload.get("ref") or {}
        return Created(id=str(ref.get("id")), oid=oid)

    async def update_ref(self, ref_id: str, oid: str, *, force: bool, undo: bool = False) -> None:
        """Point a branch at `oid` (`force` for a move that is not a fast-forward).

        `undo` marks a move that puts back what this run changed: it may pass the cap.
        """
        variables = {"refId": ref_id, "oid": oid, "force": force}
        await self._mutate("UpdateRef", variables, "updateRef", undo=undo)

    async def delete_ref(self, ref_id: str, *, undo: bool = False) -> None:
        """Delete a branch; `undo` (deleting what this run created) may pass the cap."""
        await self._mutate("DeleteRef", {"refId": ref_id}, "deleteRef", undo=undo)

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
        payload = await self._mutate("CreateCommitOnBranch", variables, "createCommitOnBranch")
        commit = payload.get("commit") or {}
        oid = commit.get("oid")
        if not isinstance(oid, str):
            raise BadResponse("CreateCommitOnBranch: answer without the commit's oid")
        return oid

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
        payload = await self._mutate("CreatePullRequest", variables, "createPullRequest")
        return _pull(payload, "CreatePullRequest")

    async def update_pull_request(self, pull_id: str, body: str) -> Created:
        """Replace a pull request's body."""
        payload = await self._mutate(
            "UpdatePullRequest", {"pullRequestId": pull_id, "body": body}, "updatePullRequest"
        )
        return _pull(payload, "UpdatePullRequest")

    async def add_comment(self, subject_id: str, body: str) -> Created:
        """Comment on an issue or pull request as the token's owner."""
        payload = await self._mutate("AddComment", {"subjectId": subject_id, "body": body}, "addComment")
        node = (payload.get("commentEdge") or {}).get("node") or {}
        if not isinstance(node.get("id"), str):
            raise BadResponse("AddComment: answer without the comment")
        return Created(id=node["id"], number=_big_int(node.get("fullDatabaseId")))

    async def update_issue_comment(self, comment_id: str, body: str) -> Created:
        """Replace the body of one of the token owner's comments."""
        payload = await self._mutate(
            "UpdateIssueComment", {"id": comment_id, "body": body}, "updateIssueComment"
        )
        node = payload.get("issueComment") or {}
        return Created(id=str(node.get("id") or comment_id), number=_big_int(node.get("fullDatabaseId")))


def _big_int(value: Any) -> int | None:
    """A BigInt as GitHub sends it (a string of digits), or None."""
    if isinstance(value, int):
        return value
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _pull(payload: Mapping[str, Any], what: str) -> Created:
    pull = payload.get("pullRequest") or {}
    if not isinstance(pull.get("id"), str) or not isinstance(pull.get("number"), int):
        raise BadResponse(f"{what}: answer without the pull request")
    return Created(id=pull["id"], number=pull["number"], url=pull.get("url"))
