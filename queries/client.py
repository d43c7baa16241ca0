"""The one module that talks to GitHub: GraphQL through gql's aiohttp transport, REST through aiohttp.

It owns retries, the time budget, rate-limit handling and the translation of every gql and
aiohttp failure into a queries.errors.GitHubError; nothing else escapes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

import aiohttp
from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.exceptions import (
    TransportError,
    TransportProtocolError,
    TransportQueryError,
    TransportServerError,
)
from graphql import ExecutionResult
from multidict import CIMultiDict, CIMultiDictProxy

from queries.documents import Operation
from queries.errors import (
    BadCredentials,
    BadResponse,
    GitHubError,
    NetworkError,
    NotFound,
    PermissionDenied,
    QueryRefused,
    QueryTimedOut,
    RateLimited,
    RequestTimeout,
    ResourceLimitsExceeded,
    SecondaryRateLimited,
    ServerError,
)
from queries.retry import RetryPolicy
from queries.usage import Usage

USER_AGENT = "correction-reader/0.1"
RATE_LIMIT_TYPES = frozenset({"RATE_LIMITED", "RATE_LIMIT"})


def rest_base_url(graphql_url: str) -> str:
    """The REST root that belongs to a GraphQL endpoint (github.com, GHES, or the emulator)."""
    base = graphql_url.rstrip("/")
    if base.endswith("/api/graphql"):  # GitHub Enterprise Server
        return base[: -len("/graphql")] + "/v3"
    if base.endswith("/graphql"):
        return base[: -len("/graphql")]
    return base


@dataclass(frozen=True)
class Answer:
    """A GraphQL answer: its data, and the errors GitHub sent beside partial data."""

    data: dict[str, Any]
    errors: tuple[dict[str, Any], ...] = ()
    status: int = 200

    def errors_at(self, *prefix: str | int) -> list[dict[str, Any]]:
        """Errors whose path starts with `prefix`."""
        found = []
        for error in self.errors:
            path = error.get("path") or []
            if list(path[: len(prefix)]) == list(prefix):
                found.append(error)
        return found


class _RecordingTransport(AIOHTTPTransport):
    """gql's aiohttp transport, remembering the status and size of the last answer."""

    last_status: int = 0
    last_text: str = ""
    last_size: int = 0

    async def _prepare_result(self, response: aiohttp.ClientResponse) -> ExecutionResult:
        self.last_status = response.status
        raw = await response.read()
        self.last_text = raw[:2000].decode("utf-8", errors="replace")
        self.last_size = len(raw)
        return await super()._prepare_result(response)


def _header_float(headers: Mapping[str, str] | None, name: str) -> float | None:
    if not headers:
        return None
    value = headers.get(name)
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _reset_in(headers: Mapping[str, str] | None) -> float | None:
    reset = _header_float(headers, "x-ratelimit-reset")
    return None if reset is None else max(0.0, reset - time.time())


def _is_secondary(text: str) -> bool:
    return "secondary rate limit" in text.lower()


# GitHub's words when it stopped a query (its 10 s limit), at HTTP 502 and at 200 alike; octokit's
# plugin-retry retries any answer whose first error says so (src/wrap-request.ts).
TIMEOUT_TEXT = "something went wrong while executing your query"
RESOURCE_LIMITS_TYPE = "RESOURCE_LIMITS_EXCEEDED"


def _rate_limited(
    status: int,
    errors: list[dict[str, Any]] | None,
    messages: str,
    text: str,
    headers: Mapping[str, str] | None,
) -> GitHubError | None:
    """A rate limit, told apart as octokit's plugin-throttling does (src/index.ts).

    Secondary when the text says so; primary when `x-ratelimit-remaining` is 0 (a REST 403 or
    429; GraphQL's RATE_LIMITED at 200); a 403 or 429 with `retry-after`, or any other 429, is a
    secondary limit. The body's text counts only when it is not a GraphQL answer (`errors` None):
    otherwise it holds data, which anybody can write.
    """
    detail = messages or text[:200]
    types = {str(error.get("type", "")) for error in errors or []}
    if types & RATE_LIMIT_TYPES:
        return RateLimited(messages or "rate limited", reset_in=_reset_in(headers), status=status)
    if _is_secondary(messages) or (errors is None and _is_secondary(text)):
        return SecondaryRateLimited(detail, retry_after=_header_float(headers, "retry-after"), status=status)
    if status not in {403, 429}:
        return None
    if headers and headers.get("x-ratelimit-remaining") == "0":
        return RateLimited(detail or "rate limited", reset_in=_reset_in(headers), status=status)
    if status == 429 or (headers and "retry-after" in headers):
        return SecondaryRateLimited(detail, retry_after=_header_float(headers, "retry-after"), status=status)
    return None


def classify(
    status: int,
    errors: list[dict[str, Any]] | None,
    text: str,
    headers: Mapping[str, str] | None,
) -> GitHubError | None:
    """The error for an answer, or None when its data (possibly partial) can be used."""
    messages = " ".join(str(error.get("message", "")) for error in errors or [])
    types = {str(error.get("type", "")) for error in errors or []}
    limited = _rate_limited(status, errors, messages, text, headers)
    if limited is not None:
        return limited
    if TIMEOUT_TEXT in messages.lower() or (errors is None and TIMEOUT_TEXT in text.lower()):
        return QueryTimedOut(messages or text[:200], status=status)
    if RESOURCE_LIMITS_TYPE in types:
        return ResourceLimitsExceeded(messages, status=status)
    if status == 401:
        return BadCredentials(messages or text[:200], status=status)
    if status == 403:
        return PermissionDenied(messages or text[:200], status=status)
    if status >= 500:
        return ServerError(messages or f"HTTP {status}", status=status)
    if status >= 400:
        return QueryRefused(messages or f"HTTP {status}", status=status)
    return None


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
        self._transport = _RecordingTransport(
            url=api_url,
            headers={"Authorization": f"bearer {token}", "User-Agent": USER_AGENT},
            # Our own timeout (asyncio.timeout in _with_retries) bounds each request; gql's is a backstop.
            timeout=int(self.policy.request_timeout) + 1,
        )
        self._client = Client(transport=self._transport, fetch_schema_from_transport=False)
        self._session: Any = None
        self._http: aiohttp.ClientSession | None = None

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
        if self._session is not None:
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

    async def _with_retries(self, attempt_once: Any, what: str, *, shrinkable: bool = False) -> Any:
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

    async def _connect(self) -> Any:
        if self._session is None:
            try:
                self._session = await self._client.connect_async(  # type: ignore[no-untyped-call]
                    reconnecting=False
                )
            except Exception as error:
                raise NetworkError(self._scrub(f"cannot connect: {error}")) from error
        return self._session

    async def execute(
        self, operation: Operation, variables: Mapping[str, Any], *, shrinkable: bool = False
    ) -> Answer:
        """Run one operation; retried within the policy. Partial data comes back with its errors.

        `shrinkable`: the caller can ask for smaller pages, so a query too big for GitHub is not
        sent again as it is (see `_with_retries`).
        """
        answer: Answer = await self._with_retries(
            lambda: self._execute_once(operation, variables),
            f"GraphQL {operation.name}",
            shrinkable=shrinkable,
        )
        return answer

    async def _execute_once(self, operation: Operation, variables: Mapping[str, Any]) -> Answer:
        session = await self._connect()
        request = GraphQLRequest(operation.document, variable_values=dict(variables))
        self.usage.graphql_requests += 1
        self._transport.last_status = 0
        self._transport.last_size = 0
        self._transport.last_text = ""
        try:
            data = await session.execute(request)
            errors: list[dict[str, Any]] = []
        except TransportQueryError as error:
            data = error.data
            errors = [e if isinstance(e, dict) else {"message": str(e)} for e in (error.errors or [])]
        except TransportServerError as error:
            status = error.code or self._transport.last_status
            found = classify(status or 500, None, self._transport.last_text, self._headers())
            raise found or ServerError(f"HTTP {status}", status=status) from error
        except TransportProtocolError as error:
            status = self._transport.last_status
            found = classify(status, None, self._transport.last_text, self._headers())
            raise found or BadResponse(
                f"{operation.name}: not a GraphQL answer (HTTP {status})",
                status=status,
                payload=self._transport.last_text[:500],
            ) from error
        except TransportError as error:
            raise NetworkError(self._scrub(f"{operation.name}: {error}")) from error
        except aiohttp.ClientError as error:
            raise NetworkError(self._scrub(f"{operation.name}: {error}")) from error
        except (json.JSONDecodeError, UnicodeDecodeError, ValueError) as error:
            raise BadResponse(f"{operation.name}: unreadable answer: {error}") from error
        finally:
            self.usage.bytes_received += self._transport.last_size
        status = self._transport.last_status or 200
        self._note_rate_limit(data)
        found = classify(status, errors, self._transport.last_text, self._headers())
        if found is not None:
            found.payload = errors
            raise found
        if not isinstance(data, dict):
            types = {str(e.get("type", "")) for e in errors}
            detail = "; ".join(str(e.get("message", "")) for e in errors)[:300]
            if "FORBIDDEN" in types:
                raise PermissionDenied(detail, status=status, payload=errors)
            if "NOT_FOUND" in types:
                raise NotFound(detail, status=status, payload=errors)
            if errors:
                raise QueryRefused(detail, status=status, payload=errors)
            raise BadResponse(f"{operation.name}: answer without data", status=status)
        return Answer(data=data, errors=tuple(errors), status=status)

    def _headers(self) -> Mapping[str, str] | None:
        headers = getattr(self._transport, "response_headers", None)
        return headers if headers is not None else None

    def _note_rate_limit(self, data: Any) -> None:
        if isinstance(data, dict):
            info = data.get("rateLimit")
            if isinstance(info, dict):
                cost, remaining = info.get("cost"), info.get("remaining")
                if isinstance(cost, int):
                    self.usage.points += cost
                if isinstance(remaining, int):
                    self.usage.remaining = remaining

    async def rest_get(self, path: str, params: Mapping[str, str] | None = None) -> Any:
        """GET a REST resource under the API root; 404 raises NotFound. Retried within the policy."""
        return await self._with_retries(lambda: self._rest_once(path, params), f"REST {path}")

    async def _rest_once(self, path: str, params: Mapping[str, str] | None) -> Any:
        if self._http is None:
            self._http = aiohttp.ClientSession(
                headers={
                    "Authorization": f"Bearer {self._token}",
                    "Accept": "application/vnd.github+json",
                    "X-GitHub-Api-Version": "2022-11-28",
                    "User-Agent": USER_AGENT,
                }
            )
        self.usage.rest_requests += 1
        try:
            async with self._http.get(f"{self.rest_url}{path}", params=params) as response:
                raw = await response.read()
                self.usage.bytes_received += len(raw)
                text = raw.decode("utf-8", errors="replace")
                if response.status == 404:
                    raise NotFound(f"REST {path}: not found", status=404)
                found = classify(response.status, None, text, response.headers)
                if found is not None:
                    raise found
                try:
                    return json.loads(text)
                except ValueError as error:
                    raise BadResponse(f"REST {path}: not JSON", status=response.status) from error
        except aiohttp.ClientError as error:
            raise NetworkError(self._scrub(f"REST {path}: {error}")) from error
