"""What the write path makes of GitHub's answers: typed mutation answers, and the permission policy.

A created ref whose answer lacks its id was recorded as the id "None"; the learnings sync asked
REST for everybody's permission whenever its GraphQL request failed, for any reason, while the
correction reader did so only when GitHub refused the collaborator list. One policy now: REST
where GitHub refused the list (FORBIDDEN) or did not list the login, nothing more.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from emulator import Server
from queries.client import GitHubClient
from queries.errors import BadResponse
from queries.permissions import fetch_permissions
from queries.retry import RetryPolicy
from queries.sync_fetch import fetch_sync_target
from queries.write import Writer

ONE_ATTEMPT = RetryPolicy(max_attempts=1)


def test_a_created_ref_without_its_id_is_a_bad_response(server: Server) -> None:
    server.set_faults([{"kind": "partial", "operation": "CreateRef", "path": ["createRef", "ref"]}])

    async def create() -> None:
        async with GitHubClient(server.url, "t0ken", policy=ONE_ATTEMPT) as client:
            target = await fetch_sync_target(
                client, "octo", "demo", branch="assistant/learnings", store_path="x.jsonl"
            )
            writer = Writer(client, min_interval=0)
            with pytest.raises(BadResponse, match="CreateRef"):
                await writer.create_ref(target.repository_id, "assistant/learnings", target.default_head)

    asyncio.run(create())


def rest_lookups(server: Server) -> list[str]:
    return [
        entry["path"].rsplit("/", 2)[-2]
        for entry in server.log()
        if entry["endpoint"] == "rest" and entry["path"].endswith("/permission")
    ]


def read_permissions(server: Server, faults: list[dict[str, Any]]) -> tuple[dict[str, str], list[str]]:
    """The permissions of three logins with a token that may list collaborators, under `faults`."""
    server.store.file = server.store.file.model_copy(update={"collaborators_via_graphql": "allowed"})
    server.set_faults(faults)

    async def read() -> tuple[dict[str, str], list[str]]:
        async with GitHubClient(server.url, "t0ken", policy=ONE_ATTEMPT) as client:
            return await fetch_permissions(client, "octo", "demo", ["alice", "bob", "zed"])

    return asyncio.run(read())


def test_a_failed_graphql_look_up_is_not_sent_to_rest(server: Server) -> None:
    """Before: a 5xx sent every login to REST, one request each."""
    found, unknown = read_permissions(
        server, [{"kind": "status_500", "operation": "CorrectionDetails", "times": None}]
    )
    assert (found, unknown) == ({}, ["alice", "bob", "zed"])
    assert rest_lookups(server) == []


def test_a_refused_collaborator_list_is_read_through_rest(server: Server) -> None:
    """alice's field answers FORBIDDEN, zed is not listed (no such user: 404, NONE): both go to REST."""
    fault = {"kind": "partial", "operation": "CorrectionDetails", "path": ["repository", "permission_0"]}
    found, unknown = read_permissions(server, [fault])
    assert (found, unknown) == ({"alice": "ADMIN", "bob": "WRITE", "zed": "NONE"}, [])
    assert sorted(rest_lookups(server)) == ["alice", "zed"]
