"""gql's transport for GitHub: one POST on the run's aiohttp session, GitHub's answer read whole.

gql's own aiohttp transport keeps neither the HTTP status nor the headers of an answer where a
caller can read them, and raises on the status before GitHub's JSON is looked at; GitHub says
what went wrong in all three (`retry-after` and `x-ratelimit-*` headers, RATE_LIMITED at HTTP
200, its timeout at 200 and 502, FORBIDDEN beside partial data). So this class implements gql's
public `AsyncTransport` interface itself: it sends the document as graphql-core prints it, hands
status, headers and body to `queries.classify` in one call (`interpret`), and raises the
`GitHubError` that comes of it. What it returns gql can use as it is: the data, and GitHub's
errors beside partial data (which gql raises as `TransportQueryError`). It opens no connection
of its own: the session is the client's, shared with its REST calls.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Callable, Mapping
from typing import Any, NoReturn, cast

import aiohttp
from gql import GraphQLRequest
from gql.transport.async_transport import AsyncTransport
from graphql import ExecutionResult, GraphQLError, print_ast

from queries.classify import classify
from queries.errors import BadResponse, NetworkError, NotFound, PermissionDenied, QueryRefused, ServerError
from queries.usage import Usage

# The part of a body the classifier reads when it is not a GraphQL answer (an HTML error page,
# GitHub's secondary-limit text), and what an error keeps of it for the logs.
TEXT_READ = 2000


def _graphql_answer(raw: bytes) -> dict[str, Any] | None:
    """The body as a GraphQL answer (a JSON object with `data` or `errors`), else None."""
    try:
        body = json.loads(raw)
    except ValueError:  # not JSON, or not UTF-8 (UnicodeDecodeError is a ValueError)
        return None
    if isinstance(body, dict) and ("data" in body or "errors" in body):
        return body
    return None


def _errors(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    found = body.get("errors") or []
    if not isinstance(found, list):
        return [{"message": str(found)}]
    return [error if isinstance(error, dict) else {"message": str(error)} for error in found]


def interpret(
    name: str, status: int, headers: Mapping[str, str], raw: bytes, usage: Usage | None = None
) -> ExecutionResult:
    """What GitHub's answer to operation `name` is: data (with the errors beside it) or the
    GitHubError it means, from its status, headers and body together.

    The points it reports (`rateLimit { cost remaining }`) are counted into `usage` before any
    error is raised: a refused answer has cost them too.
    """
    text = raw[:TEXT_READ].decode("utf-8", errors="replace")
    body = _graphql_answer(raw)
    if body is None:
        found = classify(status, None, text, headers)
        if found is not None:
            raise found
        if status >= 400:
            raise ServerError(f"HTTP {status}", status=status)
        raise BadResponse(f"{name}: not a GraphQL answer (HTTP {status})", status=status, payload=text[:500])
    data, errors = body.get("data"), _errors(body)
    if usage is not None:
        usage.note_rate_limit(data)
    found = classify(status, errors, text, headers)
    if found is not None:
        found.payload = errors
        raise found
    if not isinstance(data, dict):
        types = {str(error.get("type", "")) for error in errors}
        detail = "; ".join(str(error.get("message", "")) for error in errors)[:300]
        if "FORBIDDEN" in types:
            raise PermissionDenied(detail, status=status, payload=errors)
        if "NOT_FOUND" in types:
            raise NotFound(detail, status=status, payload=errors)
        if errors:
            raise QueryRefused(detail, status=status, payload=errors)
        raise BadResponse(f"{name}: answer without data", status=status)
    # As gql's own HTTP transports do, GitHub's errors go on as the JSON objects they came as
    # (`type` and `path` kept); gql raises them in TransportQueryError.errors.
    return ExecutionResult(data=data, errors=cast("list[GraphQLError]", errors) or None)


class GitHubTransport(AsyncTransport):
    """gql's transport interface over a session it is given (`session()`, the client's own)."""

    def __init__(
        self,
        url: str,
        session: Callable[[], aiohttp.ClientSession],
        usage: Usage,
        scrub: Callable[[str], str],
    ) -> None:
        self.url = url
        self._session = session
        self._usage = usage
        self._scrub = scrub

    async def connect(self) -> None:
        """Nothing to open: the session is the client's, opened on its first request."""

    async def close(self) -> None:
        """Nothing to close: the client closes its session."""

    async def execute(self, request: GraphQLRequest, *args: Any, **kwargs: Any) -> ExecutionResult:
        """POST the request and interpret GitHub's answer (see `interpret`)."""
        name = request.operation_name or "GraphQL"
        payload: dict[str, Any] = {"query": print_ast(request.document)}
        if request.variable_values is not None:
            payload["variables"] = request.variable_values
        if request.operation_name is not None:
            payload["operationName"] = request.operation_name
        try:
            async with self._session().post(self.url, json=payload) as response:
                raw = await response.read()
                status, headers = response.status, response.headers
        except aiohttp.ClientError as error:
            raise NetworkError(self._scrub(f"{name}: {error}")) from error
        self._usage.bytes_received += len(raw)
        return interpret(name, status, headers, raw, self._usage)

    def subscribe(self, request: GraphQLRequest) -> AsyncGenerator[ExecutionResult, None]:
        """GitHub's GraphQL API has no subscriptions."""
        _no_subscriptions()


def _no_subscriptions() -> NoReturn:
    raise NotImplementedError("GitHub's GraphQL API has no subscriptions")
