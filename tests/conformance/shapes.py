"""The conformance check's pure half: answers normalised for keeping, and their shapes compared.

A recording keeps what GitHub answered with what changes from run to run made stable: ids, node
ids, database ids, cursors, commit oids, timestamps and logins become numbered stand-ins in order
of first appearance (the same value the same stand-in within one step), URLs `<url>`, and the
sandbox's `OWNER/NAME` becomes `OWNER/REPO`. Kinds stay: an integer id stays an integer, a
timestamp stays an ISO 8601 string.

The comparison is of shapes, not values: for each operation (a GraphQL operation by name, a REST
route by method and path with its numbers and logins made placeholders), every answer to it
merged into one shape: which keys each object has (always or only sometimes), the kind of each
value (object, array, string, number, boolean, null: nullability), the items of each array, the
status codes, the rate-limit headers, and the values of the keys that name a type (`__typename`,
REST `type`, an error's `type` and `code`). Where the emulator's shape differs from GitHub's, a
difference names the operation and the path (`CorrectionWindow: data.repository.issues.nodes[].id:
GitHub answers string, the emulator number`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})")
OID = re.compile(r"[0-9a-f]{40}")
DIGITS = re.compile(r"\d+")
CURSOR_KEYS = frozenset({"cursor", "endcursor", "startcursor", "after", "before"})
OID_KEYS = frozenset({"oid", "sha", "expectedheadoid", "headrefoid", "baserefoid"})
LOGIN_ALIAS = re.compile(r"login_\d+")  # a batched look-up's variables (login_0, login_1, ...)
URL_SUFFIXES = ("url", "_url", "Url", "resourcePath")
# Keys whose value names a type: compared as values (the rest are compared by kind only).
TYPE_KEYS = frozenset({"__typename", "type", "code"})
# The response headers the product reads: their presence is compared, their values kept as stand-ins.
HEADERS = (
    "link",
    "retry-after",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "x-ratelimit-resource",
    "x-ratelimit-used",
)
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


class Normaliser:
    """Numbered stand-ins for the values that change from run to run, one numbering per step."""

    def __init__(self, repository: str) -> None:
        owner, _, name = repository.partition("/")
        self._repository = repository
        self._owner, self._name = owner, name
        self._seen: dict[tuple[str, Any], Any] = {}
        self._counts: dict[str, int] = {}

    def _stand_in(self, category: str, value: Any) -> Any:
        key = (category, value)
        if key not in self._seen:
            number = self._counts[category] = self._counts.get(category, 0) + 1
            self._seen[key] = self._make(category, number, value)
        return self._seen[key]

    @staticmethod
    def _make(category: str, number: int, value: Any) -> Any:
        if category == "int":
            return number
        if category == "time":
            return (EPOCH + timedelta(seconds=number)).isoformat().replace("+00:00", "Z")
        if category == "login":
            return f"login-{number}[bot]" if str(value).endswith("[bot]") else f"login-{number}"
        return f"<{category} {number}>"

    def login(self, value: str) -> str:
        """A login's stand-in (also used for the logins of REST paths)."""
        if value.lower() in (self._owner.lower(), "ghost"):
            return value if value == "ghost" else "OWNER"
        return str(self._stand_in("login", value.lower()))

    def text(self, value: str) -> str:
        """A free string: the repository and timestamps inside it made stable."""
        if value in (self._owner, self._name):
            return "OWNER" if value == self._owner else "REPO"
        value = value.replace(self._repository, "OWNER/REPO")
        return TIME.sub(lambda match: str(self._stand_in("time", match.group(0))), value)

    def value(self, key: str, value: Any) -> Any:
        """One value under `key`, normalised (objects and arrays walked)."""
        if isinstance(value, dict):
            return {k: self.value(k, v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(key, item) for item in value]
        if value is None or isinstance(value, bool | float):
            return value
        is_id = key in ("id", "node_id") or key.endswith(("Id", "_id"))
        if isinstance(value, int):
            return self._stand_in("int", value) if is_id else value
        if not isinstance(value, str):
            return value
        lowered = key.lower()
        if lowered.endswith("login") or LOGIN_ALIAS.fullmatch(lowered):
            return self.login(value)
        if is_id:
            return self._stand_in("id", value)
        if lowered in CURSOR_KEYS:
            return self._stand_in("cursor", value)
        if lowered in OID_KEYS or OID.fullmatch(value):
            return self._stand_in("oid", value)
        if key.endswith(URL_SUFFIXES):
            return "<url>"
        if lowered == "contents":  # a file's base64, as a commit adds it
            return "<contents>"
        if TIME.fullmatch(value):
            return self._stand_in("time", value)
        return self.text(value)

    def path(self, path: str, query: Mapping[str, str]) -> str:
        """A REST path with the repository, logins and stamps made stable; the query's keys kept,
        its `since` and `page` values too (they shape the answer), others' as `<value>`."""
        path = path.replace(f"/repos/{self._repository}/", "/repos/OWNER/REPO/")
        parts = path.split("/")
        for index, part in enumerate(parts[:-1]):
            if part == "collaborators" and index + 1 < len(parts) and parts[index + 1] != "":
                parts[index + 1] = self.login(parts[index + 1])
        shown = "/".join(parts)
        if not query:
            return shown
        pairs = [f"{k}={self.value(k, v) if k == 'since' else v}" for k, v in sorted(query.items())]
        return shown + "?" + "&".join(pairs)

    def headers(self, headers: Mapping[str, str]) -> dict[str, str]:
        """The headers the product reads that the answer had: `x-ratelimit-resource` as sent (it
        names the budget), the others as `<value>`."""
        lowered = {k.lower(): v for k, v in headers.items()}
        return {
            name: lowered[name] if name == "x-ratelimit-resource" else "<value>"
            for name in HEADERS
            if name in lowered
        }


def route(exchange: Mapping[str, Any]) -> str:
    """What an exchange asked, as the comparison groups it: `graphql Name` or `rest GET /path`
    with its logins and numbers as placeholders and its query left out."""
    if exchange["endpoint"] == "graphql":
        return f"graphql {exchange.get('operation') or '(unnamed)'}"
    path = str(exchange["path"]).split("?", 1)[0]
    parts = ["{login}" if part.startswith("login-") else DIGITS.sub("{n}", part) for part in path.split("/")]
    return f"rest {exchange['method']} {'/'.join(parts)}"


@dataclass
class Shape:
    """The merged shape of some JSON values: kinds, object keys, array items, type names."""

    kinds: set[str] = field(default_factory=set)
    objects: int = 0  # how many objects were merged (a key seen fewer times is optional)
    fields: dict[str, Shape] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)
    items: Shape | None = None
    values: set[str] = field(default_factory=set)

    def add(self, value: Any, *, key: str = "") -> Shape:
        """Merge one more value into the shape."""
        self.kinds.add(kind(value))
        if isinstance(value, dict):
            self.objects += 1
            for name, item in value.items():
                self.fields.setdefault(name, Shape()).add(item, key=name)
                self.seen[name] = self.seen.get(name, 0) + 1
        elif isinstance(value, list):
            self.items = self.items or Shape()
            for item in value:
                self.items.add(item, key=key)
        elif key in TYPE_KEYS and isinstance(value, str):
            self.values.add(value)
        return self


def kind(value: Any) -> str:
    """A JSON value's kind, as GitHub's answers are compared."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def merged(values: Iterable[Any]) -> Shape:
    """One shape for all the values."""
    shape = Shape()
    for value in values:
        shape.add(value)
    return shape


def _kinds(kinds: set[str]) -> str:
    return " or ".join(sorted(kinds)) or "nothing"


def differences(github: Shape, emulator: Shape, path: str, *, rest: bool) -> list[str]:
    """Where the emulator's shape differs from GitHub's, one line each, under `path`.

    REST objects carry many keys the product never reads: a key GitHub sends that the emulator
    leaves out is not a difference there (the emulator answers a subset), one the emulator sends
    that GitHub does not is. GraphQL answers hold what was selected, so both ways count.
    """
    found: list[str] = []
    where = path or "(answer)"
    if (
        github.kinds - {"null"} != emulator.kinds - {"null"}
        and github.kinds - {"null"}
        and emulator.kinds - {"null"}
    ):
        found.append(f"{where}: GitHub answers {_kinds(github.kinds)}, the emulator {_kinds(emulator.kinds)}")
    elif ("null" in github.kinds) != ("null" in emulator.kinds):
        side = "GitHub" if "null" in github.kinds else "the emulator"
        found.append(
            f"{where}: nullability: {side} answers null "
            f"(GitHub {_kinds(github.kinds)}, the emulator {_kinds(emulator.kinds)})"
        )
    if github.values != emulator.values:
        found.append(f"{where}: GitHub names {sorted(github.values)}, the emulator {sorted(emulator.values)}")
    for name in sorted(set(github.fields) | set(emulator.fields)):
        inner = f"{path}.{name}" if path else name
        if name not in emulator.fields:
            if not rest:
                found.append(f"{inner}: GitHub answers it, the emulator does not")
            continue
        if name not in github.fields:
            found.append(f"{inner}: the emulator answers it, GitHub does not")
            continue
        always_github = github.seen[name] == github.objects
        always_emulator = emulator.seen[name] == emulator.objects
        if always_github != always_emulator and not rest:
            found.append(
                f"{inner}: {'always' if always_github else 'sometimes'} in GitHub's objects, "
                f"{'always' if always_emulator else 'sometimes'} in the emulator's"
            )
        found.extend(differences(github.fields[name], emulator.fields[name], inner, rest=rest))
    if (
        github.items is not None
        and emulator.items is not None
        and github.items.kinds
        and emulator.items.kinds
    ):
        found.extend(differences(github.items, emulator.items, f"{path}[]", rest=rest))
    return found


def compare(github: Iterable[Mapping[str, Any]], emulator: Iterable[Mapping[str, Any]]) -> list[str]:
    """The differences between two runs' exchanges (recorded from GitHub, answered by the
    emulator), route by route: each route's status codes, headers and merged answer shape; a route
    only one side was asked is a difference too (the product asked otherwise)."""
    ours = _by_route(github)
    theirs = _by_route(emulator)
    found: list[str] = []
    for name in sorted(set(ours) | set(theirs)):
        if name not in theirs:
            found.append(f"{name}: asked of GitHub, never of the emulator")
            continue
        if name not in ours:
            found.append(f"{name}: asked of the emulator, never of GitHub")
            continue
        left, right = ours[name], theirs[name]
        statuses = ({e["status"] for e in left}, {e["status"] for e in right})
        if statuses[0] != statuses[1]:
            found.append(f"{name}: status: GitHub {sorted(statuses[0])}, the emulator {sorted(statuses[1])}")
        headers = (
            {h for e in left for h in e.get("headers", {})},
            {h for e in right for h in e.get("headers", {})},
        )
        if headers[0] != headers[1]:
            found.append(f"{name}: headers: GitHub {sorted(headers[0])}, the emulator {sorted(headers[1])}")
        rest = name.startswith("rest ")
        shapes = merged(e.get("response") for e in left), merged(e.get("response") for e in right)
        found.extend(f"{name}: {line}" for line in differences(*shapes, "", rest=rest))
    return found


def _by_route(exchanges: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for exchange in exchanges:
        grouped.setdefault(route(exchange), []).append(exchange)
    return grouped
