"""Fixtures of the emulator's tests: a small world, a running emulator, a plain HTTP client."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from emulator import Server
from tests.emulation import Emulators

HERE = Path(__file__).resolve().parent
SMALL_WORLD = HERE / "small_world.json"


@dataclass(frozen=True)
class Reply:
    """One HTTP answer."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)


def http(method: str, url: str, payload: Any = None, token: str | None = "t0ken") -> Reply:
    """Send one request over real HTTP; HTTP errors are answers too."""
    data = None if payload is None else json.dumps(payload).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if token:
        request.add_header("Authorization", f"bearer {token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return Reply(
                response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
            )
    except urllib.error.HTTPError as error:
        return Reply(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())


@pytest.fixture
def world() -> dict[str, Any]:
    """The small world as a dict (tests may change it before starting a server)."""
    data: dict[str, Any] = json.loads(SMALL_WORLD.read_text())
    return data


@pytest.fixture
def emulator(world: dict[str, Any], emulate: Emulators) -> Server:
    """A running emulator over the small world."""
    return emulate(world)


GraphQL = Callable[..., Any]


@pytest.fixture
def gql(emulator: Server) -> GraphQL:
    """POST a query (with variables) and return the decoded body."""

    def run(query: str, variables: dict[str, Any] | None = None, token: str = "t0ken") -> Any:
        return http("POST", emulator.url, {"query": query, "variables": variables or {}}, token).json()

    return run


@pytest.fixture
def client() -> Callable[..., Reply]:
    """The plain HTTP client: ``client(method, url, payload=None, token="t0ken")``."""
    return http
