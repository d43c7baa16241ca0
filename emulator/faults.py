"""Faults on demand, in GitHub's real shapes (docs/emulator.md, "Faults", names the evidence).

A fault is ``{"kind": K, "operation": name?, "endpoint": "graphql"|"rest", "nth": n?,
"times": 1|null, ...options}``: it fires on the nth matching request (the first when no nth)
and the ``times - 1`` matching requests after it; ``times: null`` fires on every one from then on.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from graphql import GraphQLError, GraphQLResolveInfo

KINDS = (
    "timeout_502",
    "timeout_200",
    "html_502",
    "status_500",
    "non_json",
    "truncated",
    "bad_credentials",
    "rate_limited",
    "rate_limit",
    "secondary_limit",
    "rest_rate_limited",
    "partial",
    "hang",
    "reset",
    "malformed",
)
OPTIONS = {
    "kind",
    "operation",
    "endpoint",
    "nth",
    "times",
    "retry_after",
    "reset_in",
    "status",
    "path",
    "type",
    "message",
    "reset_in_s",
    "limit",
}
HTML_502 = """<!DOCTYPE html>
<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
"""
PARTIAL_MESSAGES = {
    "FORBIDDEN": "Resource not accessible by integration",
    "NOT_FOUND": "Could not resolve to a node with the global id of 'unknown'",
    "RESOURCE_LIMITS_EXCEEDED": "Resource limits for this query exceeded.",
}


class FaultError(ValueError):
    """A fault list that cannot be used; the message says which entry and why."""


@dataclass
class Fault:
    """One configured fault and how often it matched and fired."""

    kind: str
    operation: str | None = None
    endpoint: str = "graphql"
    nth: int | None = None
    times: int | None = 1
    options: dict[str, Any] = field(default_factory=dict)
    seen: int = 0
    fired: int = 0


def parse_faults(specs: Any) -> list[Fault]:
    """Validate a JSON list of faults; raises FaultError."""
    if not isinstance(specs, list | tuple):
        raise FaultError("faults must be a JSON list")
    out = []
    for index, spec in enumerate(specs):
        if not isinstance(spec, dict) or spec.get("kind") not in KINDS:
            raise FaultError(f"fault {index}: kind must be one of {', '.join(KINDS)}")
        unknown = set(spec) - OPTIONS
        if unknown:
            raise FaultError(f"fault {index}: unknown keys {sorted(unknown)}")
        if spec.get("endpoint", "graphql") not in ("graphql", "rest"):
            raise FaultError(f"fault {index}: endpoint must be graphql or rest")
        if spec["kind"] == "partial" and spec.get("endpoint", "graphql") != "graphql":
            raise FaultError(f"fault {index}: partial is a fault of GraphQL answers")
        options = {
            k: v for k, v in spec.items() if k not in ("kind", "operation", "endpoint", "nth", "times")
        }
        out.append(
            Fault(
                spec["kind"],
                spec.get("operation"),
                spec.get("endpoint", "graphql"),
                spec.get("nth"),
                spec.get("times", 1),
                options,
            )
        )
    return out


class FaultPlan:
    """The current fault list; ``pick`` says which fault (if any) a request meets."""

    def __init__(self, specs: Any = ()) -> None:
        self.faults = parse_faults(list(specs))

    def replace(self, specs: Any) -> None:
        """Replace the whole list (counts start again)."""
        self.faults = parse_faults(specs)

    def pick(self, endpoint: str, operation: str | None) -> Fault | None:
        """Count the request against every matching fault; return the first that fires."""
        chosen = None
        for fault in self.faults:
            if fault.endpoint != endpoint or (fault.operation is not None and fault.operation != operation):
                continue
            fault.seen += 1
            if fault.nth is not None and fault.seen < fault.nth:
                continue
            if fault.times is not None and fault.fired >= fault.times:
                continue
            if chosen is None:
                fault.fired += 1
                chosen = fault
        return chosen


def request_id() -> str:
    """A request id like GitHub's ``XXXX:XXXX:XXXXXX:XXXXXX:XXXXXXXX``."""
    raw = uuid.uuid4().hex.upper()
    return f"{raw[:4]}:{raw[4:8]}:{raw[8:14]}:{raw[14:20]}:{raw[20:28]}"


def spent_headers(fault: Fault) -> dict[str, str]:
    """The rate-limit headers of a spent budget: nothing left, and when it comes back.

    Option ``reset_in_s`` (default 60) sets ``x-ratelimit-reset``, the epoch second of the reset
    that octokit's throttling plugin waits for; ``limit`` (default 5000) the budget's size.
    """
    limit = int(fault.options.get("limit", 5000))
    reset = int(time.time()) + int(fault.options.get("reset_in_s", 60))
    return {
        "x-ratelimit-limit": str(limit),
        "x-ratelimit-remaining": "0",
        "x-ratelimit-used": str(limit),
        "x-ratelimit-reset": str(reset),
        "x-ratelimit-resource": "graphql",
    }


def timeout_body(rid: str) -> dict[str, Any]:
    """GitHub's answer to a query it stopped after its time limit (sent at HTTP 502 or 200)."""
    return {
        "data": None,
        "errors": [
            {
                "message": (
                    "Something went wrong while executing your query. "
                    "This may be the result of a timeout, or it could "
                    f"be a GitHub bug. Please include `{rid}` when reporting this issue."
                )
            }
        ],
    }


def canned(fault: Fault, login: str) -> web.Response | None:
    """The response of a fault that replaces the answer entirely (None for the others)."""
    kind = fault.kind
    rid = request_id()
    headers = {"X-GitHub-Request-Id": rid}
    if kind in {"timeout_502", "timeout_200"}:
        status = 502 if kind == "timeout_502" else 200
        return web.json_response(timeout_body(rid), status=status, headers=headers)
    if kind == "html_502":
        return web.Response(text=HTML_502, status=502, content_type="text/html", headers=headers)
    if kind == "status_500":
        return web.json_response({"message": "Server Error"}, status=500, headers=headers)
    if kind == "non_json":
        return web.Response(
            text="<html><body>Unicorn! This page is taking too long to load.</body></html>",
            status=200,
            content_type="text/html",
            headers=headers,
        )
    if kind == "bad_credentials":
        return web.json_response(
            {
                "message": "Bad credentials",
                "documentation_url": "https://docs.github.com/graphql",
                "status": "401",
            },
            status=401,
            headers=headers,
        )
    if kind == "rate_limited":
        return web.json_response(
            {"errors": [{"type": "RATE_LIMITED", "message": (f"API rate limit exceeded for {login}.")}]},
            headers={**headers, **spent_headers(fault)},
        )
    if kind == "rate_limit":
        return web.json_response(
            {
                "errors": [
                    {
                        "type": "RATE_LIMIT",
                        "code": "graphql_rate_limit",
                        "message": ("API rate limit already exceeded for user ID 41898282."),
                    }
                ]
            },
            headers={**headers, **spent_headers(fault)},
        )
    if kind == "secondary_limit":
        retry = fault.options.get("retry_after", 1)
        if retry is not None:
            headers["retry-after"] = str(retry)
        return web.json_response(
            {
                "message": "You have exceeded a secondary rate limit. "
                "Please wait a few minutes before you try again. "
                f"If you reach out to GitHub Support for help, please include the request ID {rid}.",
                "documentation_url": "https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#secondary-rate-limits",
            },
            status=int(fault.options.get("status", 403)),
            headers=headers,
        )
    if kind == "rest_rate_limited":
        # REST's primary limit: 403 (or 429) with x-ratelimit-remaining 0 and the reset time.
        reset = int(time.time()) + int(fault.options.get("reset_in", 3600))
        return web.json_response(
            {
                "message": f"API rate limit exceeded for {login}.",
                "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
            },
            status=int(fault.options.get("status", 403)),
            headers={
                **headers,
                "x-ratelimit-limit": "1000",
                "x-ratelimit-remaining": "0",
                "x-ratelimit-used": "1000",
                "x-ratelimit-reset": str(reset),
                "x-ratelimit-resource": "core",
            },
        )
    if kind == "malformed":
        return web.json_response(
            {"data": {"unexpected": [1, "two", None], "repository": "not an object"}}, headers=headers
        )
    return None


def truncate_body(body: bytes) -> bytes:
    """The first half of a JSON body: valid UTF-8, invalid JSON."""
    return body[: max(1, len(body) // 2)]


class PartialFault:
    """The ``partial`` fault, raised where GitHub's executor would meet it: at the field (or list
    item) of the fault's ``path``, as a graphql-core resolver middleware.

    The executor then answers as GraphQL's does (the GraphQL specification, "Handling Field
    Errors"): the value is null with a typed error at its path, and a null in a non-null position
    propagates to the nearest nullable parent. `Repository.issues` is `IssueConnection!`, so a
    FORBIDDEN there nulls `repository` itself (docs/emulator.md, "Faults").
    """

    def __init__(self, fault: Fault) -> None:
        self.path: list[str | int] = list(fault.options.get("path") or [])
        error_type = fault.options.get("type", "FORBIDDEN")
        self.extensions: dict[str, Any] = {"type": error_type}
        if error_type == "FORBIDDEN":
            self.extensions["saml_failure"] = False
        self.message = fault.options.get("message") or PARTIAL_MESSAGES.get(error_type, error_type)

    def error(self) -> GraphQLError:
        """GitHub's error for the failed value; the executor adds its path and locations."""
        return GraphQLError(self.message, extensions=dict(self.extensions))

    def resolve(self, next_: Any, root: Any, info: GraphQLResolveInfo[Any], **args: Any) -> Any:
        """The middleware: the field of the path resolves to the error (graphql-core raises a
        resolved exception as a located error); a list item of the path is replaced by it."""
        here = info.path.as_list()
        if here == self.path:
            return self.error()
        value = next_(root, info, **args)
        if here == self.path[:-1] and isinstance(self.path[-1], int) and isinstance(value, list | tuple):
            items = list(value)
            if 0 <= self.path[-1] < len(items):
                items[self.path[-1]] = self.error()
            return items
        return value
