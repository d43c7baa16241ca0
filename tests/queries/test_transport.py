"""The project's gql transport over real HTTP (an aiohttp test server answering as GitHub does):
status, headers and body reach the classifier together, GitHub's errors beside partial data keep
their `type` and `path`, the points an answer reports are counted even when it is refused, and
one aiohttp session (one connection, here) carries GraphQL and REST alike."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from queries.client import Answer, GitHubClient
from queries.document_text import operation_text
from queries.documents import operation
from queries.errors import (
    BadCredentials,
    BadResponse,
    GitHubError,
    PermissionDenied,
    QueryTimedOut,
    RateLimited,
    ResourceLimitsExceeded,
    SecondaryRateLimited,
    ServerError,
)
from queries.retry import RetryPolicy

Result = TypeVar("Result")
TIMEOUT = "Something went wrong while executing your query. This may be the result of a timeout."
RATE = {"rateLimit": {"cost": 3, "remaining": 4990}}


def answering(
    status: int, body: object, headers: dict[str, str] | None = None
) -> Callable[[web.Request], Awaitable[web.Response]]:
    text = body if isinstance(body, str) else json.dumps(body)

    async def handle(request: web.Request) -> web.Response:
        return web.Response(status=status, text=text, headers=headers, content_type="application/json")

    return handle


def served(
    graphql: Callable[[web.Request], Awaitable[web.Response]],
    read: Callable[[GitHubClient], Awaitable[Result]],
    rest: Callable[[web.Request], Awaitable[web.Response]] | None = None,
) -> tuple[Result, GitHubClient]:
    """`read(client)` against a server that answers GraphQL with `graphql` (and REST with `rest`)."""

    async def run() -> tuple[Result, GitHubClient]:
        app = web.Application()
        app.router.add_post("/graphql", graphql)
        if rest is not None:
            app.router.add_get("/repos/{owner}/{name}", rest)
        async with TestServer(app) as server:
            policy = RetryPolicy(max_attempts=1, total_budget=5)
            async with GitHubClient(str(server.make_url("/graphql")), "ghs_secret", policy=policy) as client:
                return await read(client), client

    return asyncio.run(run())


def failure(graphql: Callable[[web.Request], Awaitable[web.Response]]) -> tuple[GitHubError, GitHubClient]:
    async def read(client: GitHubClient) -> GitHubError:
        with pytest.raises(GitHubError) as caught:
            await client.execute(operation("CorrectionDetails"), {})
        return caught.value

    return served(graphql, read)


def test_rate_limited_at_200_reads_the_reset_header() -> None:
    reset = str(int(time.time()) + 30)
    body = {"data": None, "errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded"}]}
    error, _ = failure(answering(200, body, {"x-ratelimit-reset": reset, "x-ratelimit-remaining": "0"}))
    assert isinstance(error, RateLimited)
    assert error.reset_in is not None and 25 < error.reset_in <= 30


@pytest.mark.parametrize("status", [403, 429])
def test_a_secondary_limit_reads_retry_after_beside_a_body_that_is_not_graphql(status: int) -> None:
    body = {"message": "You have exceeded a secondary rate limit."}
    error, _ = failure(answering(status, body, {"retry-after": "42"}))
    assert isinstance(error, SecondaryRateLimited)
    assert error.retry_after == 42
    assert error.status == status


@pytest.mark.parametrize("status", [200, 502, 504])
def test_githubs_timeout_with_null_data_asks_for_less_at_any_status(status: int) -> None:
    error, _ = failure(answering(status, {"data": None, "errors": [{"message": TIMEOUT}]}))
    assert isinstance(error, QueryTimedOut)
    assert error.asks_for_less
    assert error.status == status


def test_an_html_502_is_a_server_error_and_a_json_401_bad_credentials() -> None:
    error, _ = failure(answering(502, "<html>Bad gateway</html>"))
    assert isinstance(error, ServerError) and error.status == 502
    error, _ = failure(answering(401, {"message": "Bad credentials"}))
    assert isinstance(error, BadCredentials)


def test_a_refused_answer_still_counts_the_points_it_reports() -> None:
    body = {"data": RATE, "errors": [{"type": "RESOURCE_LIMITS_EXCEEDED", "message": "too big"}]}
    error, client = failure(answering(200, body))
    assert isinstance(error, ResourceLimitsExceeded)
    assert client.usage.points == 3
    assert client.usage.remaining == 4990


def test_partial_data_comes_back_with_githubs_errors_whole() -> None:
    refused = {"type": "FORBIDDEN", "path": ["repository", "collaborators"], "message": "no"}
    body = {"data": {**RATE, "repository": None}, "errors": [refused]}

    async def read(client: GitHubClient) -> Any:
        return await client.execute(operation("CorrectionDetails"), {})

    answer, client = served(answering(200, body), read)
    assert answer.data["repository"] is None
    assert answer.errors == (refused,)
    assert answer.errors_at("repository") == [refused]
    assert client.usage.points == 3


def test_forbidden_with_no_data_is_permission_denied() -> None:
    error, _ = failure(answering(200, {"data": None, "errors": [{"type": "FORBIDDEN", "message": "no"}]}))
    assert isinstance(error, PermissionDenied)


def test_one_session_carries_graphql_and_rest() -> None:
    """One run, one aiohttp session: the REST look-up goes out on the connection GraphQL opened
    (a second session would open a connection of its own, from another port)."""
    peers: list[tuple[str, object]] = []

    def noting(kind: str, answer: Callable[[web.Request], Awaitable[web.Response]]) -> Any:
        async def handle(request: web.Request) -> web.Response:
            assert request.transport is not None
            peers.append((kind, request.transport.get_extra_info("peername")))
            return await answer(request)

        return handle

    async def read(client: GitHubClient) -> object:
        await client.execute(operation("CorrectionDetails"), {})
        return await client.rest_get("/repos/octo/demo")

    found, client = served(
        noting("graphql", answering(200, {"data": RATE})),
        read,
        rest=noting("rest", answering(200, {"full_name": "octo/demo"})),
    )
    assert found == {"full_name": "octo/demo"}
    assert [kind for kind, _ in peers] == ["graphql", "rest"]
    assert peers[0][1] == peers[1][1]
    assert (client.usage.graphql_requests, client.usage.rest_requests) == (1, 1)


def test_the_policy_alone_bounds_a_request_sent_through_gql() -> None:
    """gql's own timeout (10 s by default) would cut short the answer GitHub gives at its own
    10 s limit, which the policy waits up to 15 s for (queries/retry.py); a request sent as text
    has none either. Read on the client, since a test cannot wait 10 s."""

    async def read(client: GitHubClient) -> object:
        return await client.execute(operation("CorrectionDetails"), {})

    _, client = served(answering(200, {"data": RATE}), read)
    assert client._client is not None
    assert client._client.execute_timeout is None
    assert client.policy.request_timeout > 10


def test_a_document_sent_as_text_is_read_as_gqls_are() -> None:
    """The scan page's request, posted without gql: the same answer, errors and usage."""
    bodies: list[dict[str, Any]] = []

    async def handle(request: web.Request) -> web.Response:
        bodies.append(await request.json())
        return web.Response(
            text=json.dumps({"data": RATE, "errors": [{"type": "NOT_FOUND", "path": ["x"], "message": "m"}]}),
            content_type="application/json",
        )

    async def read(client: GitHubClient) -> Answer:
        return await client.execute(operation_text("CorrectionWindow"), {"owner": "octo"})

    answer, client = served(handle, read)
    assert answer.data == RATE and answer.errors_at("x") == [
        {"type": "NOT_FOUND", "path": ["x"], "message": "m"}
    ]
    [body] = bodies
    assert (
        body["operationName"] == "CorrectionWindow"
        and body["query"] == operation_text("CorrectionWindow").text
    )
    assert body["variables"]["owner"] == "octo" and "timelineItemTypes" in body["variables"]
    assert client.usage.graphql_requests == 1 and client.usage.points == 3
    assert client._client is None  # gql was not used


def test_a_rest_answer_redirected_to_another_host_is_refused() -> None:
    """A 302 to another host: aiohttp drops the token there, but that host's answer was taken as
    the person's permission (admin). Now it is refused, and the login's permission stays unknown."""
    from queries.permissions import fetch_permissions_rest

    seen: list[str | None] = []

    async def other_host(request: web.Request) -> web.Response:
        seen.append(request.headers.get("Authorization"))
        return web.json_response({"permission": "admin", "role_name": "admin"})

    async def run() -> tuple[dict[str, str], list[str], set[str]]:
        elsewhere = web.Application()
        elsewhere.router.add_get("/{tail:.*}", other_host)
        async with TestServer(elsewhere, host="127.0.0.2") as away:

            async def moved(request: web.Request) -> web.Response:
                raise web.HTTPFound(str(away.make_url(request.path)))

            home = web.Application()
            home.router.add_get("/repos/{tail:.*}", moved)
            async with TestServer(home) as server:
                policy = RetryPolicy(max_attempts=1, total_budget=5)
                async with GitHubClient(
                    str(server.make_url("/graphql")), "ghs_secret", policy=policy
                ) as client:
                    failures: set[str] = set()
                    found, unknown = await fetch_permissions_rest(
                        client, "o", "r", ["mallory"], failures=failures
                    )
                    return found, unknown, failures

    found, unknown, failures = asyncio.run(run())
    assert seen == [None]  # the token never went there
    assert found == {} and unknown == ["mallory"]  # before: {"mallory": "ADMIN"}
    assert failures == {BadResponse.category}
