"""What an answer from GitHub means: the error it is, or None when its data can be used.

One place for GitHub's ways of saying no (rate limits primary and secondary, its query timeout,
resource limits, bad credentials, forbidden, server errors), for GraphQL and REST alike.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from queries.errors import (
    BadCredentials,
    GitHubError,
    MissingPermission,
    NotFound,
    PermissionDenied,
    QueryRefused,
    QueryTimedOut,
    RateLimited,
    ResourceLimitsExceeded,
    SecondaryRateLimited,
    ServerError,
)

RATE_LIMIT_TYPES = frozenset({"RATE_LIMITED", "RATE_LIMIT"})
# The workflow permission that opens each non-null connection of `Repository` the queries ask
# for. A FORBIDDEN there nulls `repository` itself (GraphQL's null propagation: `issues` is
# `IssueConnection!`), which must not read as a repository that does not exist
# (https://docs.github.com/en/actions/writing-workflows/choosing-what-your-workflow-does/controlling-permissions-for-github_token).
REPOSITORY_FIELD_PERMISSIONS = {"issues": "issues", "pullRequests": "pull-requests"}


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


# GitHub's content-creation limit (80 a minute, 500 an hour) as GraphQL answers it: HTTP 200,
# an UNPROCESSABLE error saying "was submitted too quickly" (cli/cli#4801). A limit, not a refusal.
TOO_QUICKLY_TEXT = "was submitted too quickly"


def _too_quickly(errors: list[dict[str, Any]] | None) -> bool:
    return any(
        str(error.get("type", "")) == "UNPROCESSABLE"
        and TOO_QUICKLY_TEXT in str(error.get("message", "")).lower()
        for error in errors or []
    )


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
    if _is_secondary(messages) or (errors is None and _is_secondary(text)) or _too_quickly(errors):
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


def missing_repository(owner: str, name: str, errors: Sequence[Mapping[str, Any]]) -> GitHubError:
    """Why an answer's `repository` is null: a part of it GitHub refused (FORBIDDEN beneath it,
    propagated up), naming the permission that opens it when one does; else not found."""
    refused = [
        path
        for error in errors
        if str(error.get("type", "")) == "FORBIDDEN"
        and (path := list(error.get("path") or []))[:1] == ["repository"]
        and len(path) > 1
    ]
    # A refusal that one permission opens first: a nullable field refused beside it (the reader's
    # probe of the collaborator list) cannot have nulled `repository`.
    refused.sort(key=lambda path: str(path[1]) not in REPOSITORY_FIELD_PERMISSIONS)
    for path in refused[:1]:
        permission = REPOSITORY_FIELD_PERMISSIONS.get(str(path[1]))
        detail = f"repository {owner}/{name}: {'.'.join(map(str, path))} refused"
        if permission is not None:
            return MissingPermission(detail, permission, payload=list(errors))
        return PermissionDenied(detail, payload=list(errors))
    return NotFound(f"repository {owner}/{name} not found or not visible", payload=list(errors))
