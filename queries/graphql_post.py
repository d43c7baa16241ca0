"""One GraphQL POST on the run's aiohttp session, and what GitHub's answer to it means.

GitHub says what went wrong in the status, the headers and the body together (`retry-after` and
`x-ratelimit-*` headers, RATE_LIMITED at HTTP 200, its timeout at 200 and 502, FORBIDDEN beside
partial data): `interpret` hands all three to `queries.classify` in one call and raises the
`GitHubError` that comes of it, else returns the data with the errors GitHub sent beside it.
Neither gql nor graphql-core: gql's transport (queries/transport.py) posts through `post`, and so
does a read's first request, sent before gql loads (queries/document_text.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp

from queries.classify import classify
from queries.errors import BadResponse, NetworkError, NotFound, PermissionDenied, QueryRefused, ServerError
from queries.usage import Usage


@dataclass(frozen=True)
class Answer:
    """A GraphQL answer: its data, and the errors GitHub sent beside partial data."""

    data: dict[str, Any]
    errors: tuple[dict[str, Any], ...] = ()

    def errors_at(self, *prefix: str | int) -> list[dict[str, Any]]:
        """Errors whose path starts with `prefix`."""
        found = []
        for error in self.errors:
            path = error.get("path") or []
            if list(path[: len(prefix)]) == list(prefix):
                found.append(error)
        return found


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
) -> Answer:
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
    return Answer(data=data, errors=tuple(errors))


async def post(
    session: aiohttp.ClientSession,
    url: str,
    name: str,
    payload: Mapping[str, Any],
    *,
    usage: Usage,
    scrub: Callable[[str], str],
) -> Answer:
    """POST `payload` (query, variables, operationName) for operation `name`; GitHub's answer
    interpreted (see `interpret`). A failure of the connection is a NetworkError, the token
    scrubbed from its text."""
    try:
        async with session.post(url, json=payload) as response:
            raw = await response.read()
            status, headers = response.status, response.headers
    except aiohttp.ClientError as error:
        raise NetworkError(scrub(f"{name}: {error}")) from error
    usage.bytes_received += len(raw)
    return interpret(name, status, headers, raw, usage)
