"""The one module that talks to GitHub: GraphQL through gql, REST through aiohttp, one session for both.

It owns retries, the time budget, rate-limit handling and the translation of every gql and
aiohttp failure into a queries.errors.GitHubError; nothing else escapes it. GraphQL goes through
gql's public client API on the project's own transport (queries/transport.py), which reads
GitHub's answers whole; REST through the same aiohttp session.

gql and graphql-core load on the first `execute` of a parsed document, not with this module: a
read's first request (its document as text, queries/document_text.py) leaves before them, and
they load while GitHub answers it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import aiohttp
from multidict import CIMultiDict, CIMultiDictProxy
from yarl import URL

from queries.classify import classify
from queries.document_text import OperationText
from queries.errors import BadResponse, GitHubError, NetworkError, NotFound, RequestTimeout
from queries.graphql_post import Answer, post
from queries.retry import RetryPolicy
from queries.usage import Usage

if TYPE_CHECKING:
    from gql import Client
    from gql.client import AsyncClientSession

    from queries.documents import Operation

USER_AGENT = "correction-reader/0.1"
# What a REST request adds to the session's headers (GitHub's REST documentation, "Getting started").
REST_HEADERS = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
Result = TypeVar("Result")
__all__ = ["Answer", "GitHubClient", "RestPage", "rest_base_url"]


def rest_base_url(graphql_url: str) -> str:
    """The REST root that belongs to a GraphQL endpoint (github.com, GHES, or the emulator)."""
    base = graphql_url.rstrip("/")
    if base.endswith("/api/graphql"):  # GitHub Enterprise Server
        return base[: -len("/graphql")] + "/v3"
    if base.endswith("/graphql"):
        return base[: -len("/graphql")]
    return base


@dataclass(frozen=True)
class RestPage:
    """A REST answer: its JSON as parsed, and the next page of the list as (path, query), if any."""

    body: object
    next: tuple[str, dict[str, str]] | None = None


class GitHubClient:
    """An open connection to GitHub's GraphQL and REST APIs with one token.

    Use as `async with GitHubClient(url, token) as client:`; every method raises only GitHubError.
    """

    def __init__(
        self,
        api_url: str,
        token: str,
        *,
        policy: RetryPolicy | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.api_url = api_url
        self._sleep = sleep
        self.rest_url = rest_base_url(api_url)
        self.policy = policy or RetryPolicy()
        self.usage = Usage()
        self._token = token
        self._started = time.monotonic()
        # Set once a GraphQL request has left (its body handed to the connection) or failed to.
        self._sent = asyncio.Event()
        # Requests (GraphQL or REST, each attempt) whose headers have reached the connection.
        self.requests_out = 0
        self._out = asyncio.Condition()
        self._client: Client | None = None  # gql's, made on the first `execute`
        self._session: AsyncClientSession | None = None
        self._http: aiohttp.ClientSession | None = None

    def _http_session(self) -> aiohttp.ClientSession:
        """The run's one aiohttp session, GraphQL and REST alike (opened on the first request)."""
        if self._http is None:
            trace = aiohttp.TraceConfig()
            trace.on_request_chunk_sent.append(self._on_request_left)
            trace.on_request_end.append(self._on_request_left)
            trace.on_request_exception.append(self._on_request_left)
            trace.on_request_headers_sent.append(self._on_request_out)
            self._http = aiohttp.ClientSession(
                headers={"Authorization": f"bearer {self._token}", "User-Agent": USER_AGENT},
                # Our own timeout (asyncio.timeout in _with_retries) bounds each request; this is a backstop.
                timeout=aiohttp.ClientTimeout(total=int(self.policy.request_timeout) + 1),
                trace_configs=[trace],
            )
        return self._http

    async def _on_request_left(
        self,
        session: aiohttp.ClientSession,
        context: object,
        params: aiohttp.TraceRequestChunkSentParams
        | aiohttp.TraceRequestEndParams
        | aiohttp.TraceRequestExceptionParams,
    ) -> None:
        if params.method == "POST":  # GraphQL is the one POST the client sends; REST only GETs
            self._sent.set()

    async def _on_request_out(
        self, session: aiohttp.ClientSession, context: object, params: aiohttp.TraceRequestHeadersSentParams
    ) -> None:
        async with self._out:
            self.requests_out += 1
            self._out.notify_all()

    async def requests_out_reach(self, count: int) -> None:
        """Return once `count` requests (every attempt of any request counted) have gone out.

        What the read waits for before it loads code it needs only later beside a request in
        flight (corrections/read/entry.py), as it does for the first request.
        """
        async with self._out:
            await self._out.wait_for(lambda: self.requests_out >= count)

    async def request_left(self) -> None:
        """Return once a GraphQL request has been sent (or its first attempt has failed).

        What the read waits for before it loads the rest of its code beside the request: the
        request must not wait for the interpreter that loads it.
        """
        await self._sent.wait()

    async def __aenter__(self) -> Self:
        self._started = time.monotonic()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close both connections; errors while closing are of no interest."""
        self.usage.seconds = time.monotonic() - self._started
        if self._session is not None and self._client is not None:
            # Closing a broken connection may fail; there is nothing left to do then.
            with contextlib.suppress(Exception):
                await self._client.close_async()  # type: ignore[no-untyped-call]
            self._session = None
        if self._http is not None:
            await self._http.close()
            self._http = None

    def _remaining_budget(self) -> float:
        return self.policy.total_budget - (time.monotonic() - self._started)

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, "***") if self._token else text

    async def _with_retries(
        self, attempt_once: Callable[[], Awaitable[Result]], what: str, *, shrinkable: bool = False
    ) -> Result:
        """Run `attempt_once` until it answers, the policy gives up, or the budget is used up.

        Raises the failure that explains the end best: a timeout that only the end of the budget
        caused does not hide the failure that was being retried. When `shrinkable`, a failure
        that asks for less (GitHub's timeout, resource limits) is raised at once: the caller asks
        again with smaller pages rather than sending the same query again.
        """
        attempt = 0
        earlier: GitHubError | None = None
        while True:
            attempt += 1
            remaining = self._remaining_budget()
            if remaining <= 0:
                raise earlier or RequestTimeout(
                    f"{what}: time budget of {self.policy.total_budget:g} s used up"
                )
            timeout = self.policy.timeout(remaining)
            try:
                async with asyncio.timeout(timeout):
                    return await attempt_once()
            except TimeoutError as error:
                if earlier is not None and timeout < self.policy.request_timeout:
                    raise earlier from None
                failure: GitHubError = RequestTimeout(f"{what}: no answer in time")
                failure.__cause__ = error
            except GitHubError as error:
                failure = error
            self._redact(failure)
            if shrinkable and failure.asks_for_less:
                raise failure
            wait = self.policy.wait(attempt, failure, self._remaining_budget())
            if wait is None:
                raise failure
            earlier = failure
            self.usage.retries += 1
            await self._sleep(wait)

    def _redact(self, error: BaseException) -> None:
        """Remove the token from an exception and every exception it was caused by.

        aiohttp keeps the request's headers (Authorization included) on ClientResponseError; the
        chain is kept for logs, without them.
        """
        seen: set[int] = set()
        current: BaseException | None = error
        while current is not None and id(current) not in seen:
            seen.add(id(current))
            current.args = tuple(self._scrub(a) if isinstance(a, str) else a for a in current.args)
            if isinstance(current, GitHubError):
                current.detail = self._scrub(current.detail)
            if isinstance(current, aiohttp.ClientResponseError):
                info = current.request_info
                headers = CIMultiDict(info.headers)
                headers.popall("Authorization", None)
                clean = aiohttp.RequestInfo(info.url, info.method, CIMultiDictProxy(headers), info.real_url)
                current.request_info = clean
                current.args = tuple(clean if a is info else a for a in current.args)
            current = current.__cause__ or current.__context__

    async def _connect(self) -> AsyncClientSession:
        if self._client is None:
            from gql import Client

            from queries.transport import GitHubTransport

            transport = GitHubTransport(self.api_url, self._http_session, self.usage, self._scrub)
            # No timeout of gql's own (10 s by default): the policy's (`_with_retries`, up to 15 s
            # to hear GitHub's answer to its own 10 s limit) bounds every request, sent as text or not.
            self._client = Client(
                transport=transport, fetch_schema_from_transport=False, execute_timeout=None
            )
        if self._session is None:
            try:
                self._session = await self._client.connect_async(  # type: ignore[no-untyped-call]
                    reconnecting=False
                )
            except Exception as error:
                raise NetworkError(self._scrub(f"cannot connect: {error}")) from error
        return self._session

    async def execute(
        self, operation: Operation | OperationText, variables: Mapping[str, Any], *, shrinkable: bool = False
    ) -> Answer:
        """Run one operation; retried within the policy. Partial data comes back with its errors.

        A parsed document (queries.documents) goes through gql; one given as its text
        (queries.document_text: a read's scan pages, the first sent before gql is loaded) is
        posted as it is, with the same retries, budget and errors.

        `shrinkable`: the caller can ask for smaller pages, so a query too big for GitHub is not
        sent again as it is (see `_with_retries`).
        """
        return await self._with_retries(
            lambda: self._execute_once(operation, variables),
            f"GraphQL {operation.name}",
            shrinkable=shrinkable,
        )

    async def _post_text_once(self, operation: OperationText, variables: Mapping[str, Any]) -> Answer:
        """One attempt of an operation given as its text: posted without gql (see `execute`)."""
        payload = {
            "query": operation.text,
            "variables": {**variables, **operation.fixed_variables},
            "operationName": operation.name,
        }
        return await post(
            self._http_session(), self.api_url, operation.name, payload, usage=self.usage, scrub=self._scrub
        )

    async def _execute_once(
        self, operation: Operation | OperationText, variables: Mapping[str, Any]
    ) -> Answer:
        self.usage.graphql_requests += 1
        if isinstance(operation, OperationText):
            return await self._post_text_once(operation, variables)
        from gql import GraphQLRequest
        from gql.transport.exceptions import TransportError, TransportQueryError

        session = await self._connect()
        request = GraphQLRequest(
            operation.document,
            variable_values={**variables, **operation.fixed_variables},
            operation_name=operation.name,
        )
        errors: list[dict[str, Any]] = []
        try:
            result = await session.execute(request, get_execution_result=True)
            data = result.data
        except TransportQueryError as error:  # data beside errors, as the transport passed them on
            data = error.data
            errors = [e if isinstance(e, dict) else {"message": str(e)} for e in (error.errors or [])]
        except (TransportError, aiohttp.ClientError) as error:
            raise NetworkError(self._scrub(f"{operation.name}: {error}")) from error
        if not isinstance(data, dict):  # the transport raises for every answer without data
            raise BadResponse(f"{operation.name}: answer without data")
        return Answer(data=data, errors=tuple(errors))

    async def rest_get(self, path: str, params: Mapping[str, str] | None = None) -> object:
        """GET a REST resource under the API root, its JSON as parsed (checked by the caller); 404
        raises NotFound. Retried within the policy."""
        return (await self.rest_get_page(path, params)).body

    async def rest_get_page(self, path: str, params: Mapping[str, str] | None = None) -> RestPage:
        """`rest_get` of one page of a REST list, with the page its `Link` header names next."""
        return await self._with_retries(lambda: self._rest_once(path, params), f"REST {path}")

    def _same_origin(self, url: URL) -> bool:
        """Whether `url` is on the API root's scheme, host and port."""
        root = URL(self.rest_url)
        return (url.scheme, url.host, url.port) == (root.scheme, root.host, root.port)

    def _next_page(self, path: str, response: aiohttp.ClientResponse) -> tuple[str, dict[str, str]] | None:
        """The `rel="next"` link of a REST answer as (path, query) under the API root. A link that
        leaves the root is refused (BadResponse): the token is never sent anywhere else."""
        link = response.links.get("next")
        if link is None:
            return None
        url = URL(str(link.get("url", "")))
        root = URL(self.rest_url)
        if (url.scheme, url.host, url.port) != (root.scheme, root.host, root.port) or not url.path.startswith(
            root.path.rstrip("/") + "/"
        ):
            raise BadResponse(f"REST {path}: the next page's link leaves the API root")
        return url.path[len(root.path.rstrip("/")) :], dict(url.query)

    async def _rest_once(self, path: str, params: Mapping[str, str] | None) -> RestPage:
        self.usage.rest_requests += 1
        try:
            async with self._http_session().get(
                f"{self.rest_url}{path}", params=params, headers=REST_HEADERS
            ) as response:
                raw = await response.read()
                self.usage.bytes_received += len(raw)
                if not self._same_origin(response.url):
                    # A redirect to another host: aiohttp dropped the token there, and what that
                    # host answers is not GitHub's word on anything.
                    raise BadResponse(f"REST {path}: redirected to another host; its answer is not used")
                text = raw.decode("utf-8", errors="replace")
                if response.status == 404:
                    raise NotFound(f"REST {path}: not found", status=404)
                found = classify(response.status, None, text, response.headers)
                if found is not None:
                    raise found
                try:
                    body = json.loads(text)
                except ValueError as error:
                    raise BadResponse(f"REST {path}: not JSON", status=response.status) from error
                return RestPage(body=body, next=self._next_page(path, response))
        except aiohttp.ClientError as error:
            raise NetworkError(self._scrub(f"REST {path}: {error}")) from error
