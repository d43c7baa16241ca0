"""gql's transport for GitHub: one POST on the run's aiohttp session, GitHub's answer read whole.

gql's own aiohttp transport keeps neither the HTTP status nor the headers of an answer where a
caller can read them, and raises on the status before GitHub's JSON is looked at; GitHub says
what went wrong in all three. So this class implements gql's public `AsyncTransport` interface
itself: it sends the document as graphql-core prints it through `queries.graphql_post.post`,
which reads status, headers and body together and raises the `GitHubError` they mean. What it
returns gql can use as it is: the data, and GitHub's errors beside partial data (which gql raises
as `TransportQueryError`). It opens no connection of its own: the session is the client's, shared
with its REST calls.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any, NoReturn, cast

import aiohttp
from gql import GraphQLRequest
from gql.transport.async_transport import AsyncTransport
from graphql import ExecutionResult, GraphQLError, print_ast

from queries.graphql_post import post
from queries.usage import Usage


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
        """POST the request; GitHub's answer interpreted (queries.graphql_post.interpret)."""
        name = request.operation_name or "GraphQL"
        payload: dict[str, Any] = {"query": print_ast(request.document)}
        if request.variable_values is not None:
            payload["variables"] = request.variable_values
        if request.operation_name is not None:
            payload["operationName"] = request.operation_name
        answer = await post(self._session(), self.url, name, payload, usage=self._usage, scrub=self._scrub)
        # As gql's own HTTP transports do, GitHub's errors go on as the JSON objects they came as;
        # gql raises them in TransportQueryError.errors.
        return ExecutionResult(
            data=answer.data, errors=cast("list[GraphQLError]", list(answer.errors)) or None
        )

    def subscribe(self, request: GraphQLRequest) -> AsyncGenerator[ExecutionResult, None]:
        """GitHub's GraphQL API has no subscriptions."""
        _no_subscriptions()


def _no_subscriptions() -> NoReturn:
    raise NotImplementedError("GitHub's GraphQL API has no subscriptions")
