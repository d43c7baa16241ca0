"""One exception root for everything GitHub can do wrong; each keeps what caused it.

`category` is a fixed phrase of this program, safe to show in a prompt or a step summary;
GitHub's own text stays in `detail` and `payload`, for logs only.
"""

from __future__ import annotations

from typing import Any


class GitHubError(Exception):
    """GitHub could not answer usefully. Never raised with a token in its text."""

    category = "GitHub failed"
    retryable = False
    # The same query is too big for GitHub: asking for less (smaller pages) may get through.
    asks_for_less = False

    def __init__(self, detail: str, *, status: int | None = None, payload: Any = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.status = status
        self.payload = payload


class NetworkError(GitHubError):
    """The connection failed: refused, reset, closed, or no route."""

    category = "network error"
    retryable = True


class RequestTimeout(GitHubError):
    """No answer within the time allowed for one request or for the whole reading."""

    category = "timeout"
    retryable = True


class ServerError(GitHubError):
    """HTTP 5xx, including GitHub's "Something went wrong while executing your query"."""

    category = "GitHub server error"
    retryable = True


class QueryTimedOut(ServerError):
    """GitHub stopped the query after its 10 s limit: "Something went wrong while executing your
    query. This may be the result of a timeout..." with `data: null`, at HTTP 502 or 200 alike.

    Retried like a 5xx; a reader that can ask for smaller pages does that instead.
    """

    category = "GitHub timeout"
    asks_for_less = True


class ResourceLimitsExceeded(GitHubError):
    """HTTP 200, the parent field nulled and an error of type RESOURCE_LIMITS_EXCEEDED: the query
    needs more than GitHub lets one query use. Never a missing repository; the same query fails
    again, a smaller one may not.
    """

    category = "resource limits"
    asks_for_less = True


class RateLimited(GitHubError):
    """The primary rate limit: points for the hour are used up (GraphQL: HTTP 200, RATE_LIMITED;
    REST: 403 or 429 with `x-ratelimit-remaining: 0`)."""

    category = "rate limit"

    def __init__(self, detail: str, *, reset_in: float | None = None, **kwargs: Any) -> None:
        super().__init__(detail, **kwargs)
        self.reset_in = reset_in


class SecondaryRateLimited(GitHubError):
    """A secondary rate limit (HTTP 403, 429 or 200) with an optional retry-after."""

    category = "secondary rate limit"
    retryable = True

    def __init__(self, detail: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(detail, **kwargs)
        self.retry_after = retry_after


class BadCredentials(GitHubError):
    """HTTP 401: the token is missing, expired or wrong."""

    category = "bad credentials"


class PermissionDenied(GitHubError):
    """HTTP 403 or a FORBIDDEN error where nothing usable came back."""

    category = "permission denied"


def lacks(permission: str) -> str:
    """The fixed category of a token refused for want of one workflow permission (`issues: read`)."""
    return f"the token lacks {permission}: read"


class MissingPermission(PermissionDenied):
    """FORBIDDEN ("Resource not accessible by integration") on a part that one permission of the
    workflow's token opens: the category names it (`the token lacks issues: read`)."""

    def __init__(self, detail: str, permission: str, *, payload: Any = None) -> None:
        super().__init__(detail, payload=payload)
        self.permission = permission
        self.category = lacks(permission)


class NotFound(GitHubError):
    """The repository (or another root object) does not exist or is not visible to the token."""

    category = "not found"


class BadResponse(GitHubError):
    """A body that is not JSON, is cut off, or does not match what was asked."""

    category = "unreadable response"
    retryable = True


class QueryRefused(GitHubError):
    """GitHub refused the query itself (validation, limits): a defect of this program."""

    category = "query refused"


class WriteRefused(GitHubError):
    """A mutation was refused (for example STALE_DATA, or pull requests not allowed)."""

    category = "write refused"

    def __init__(self, detail: str, *, error_type: str | None = None, **kwargs: Any) -> None:
        super().__init__(detail, **kwargs)
        self.error_type = error_type
