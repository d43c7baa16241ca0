"""Every fault kind, in GitHub's shapes, once or always, by nth request or operation name."""

from __future__ import annotations

import http.client
import json
import socket
import time
from typing import Any
from urllib.parse import urlparse

import pytest

from emulator import Server
from tests.emulation import Emulators

QUERY = {
    "query": 'query Probe { repository(owner: "octo", name: "demo") { issue(number: 1) { number title } } }'
}


def _raw(server: Server, timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
    url = urlparse(server.url)
    connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=timeout)
    try:
        connection.request(
            "POST",
            url.path,
            json.dumps(QUERY),
            {"Authorization": "bearer t", "Content-Type": "application/json"},
        )
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize(
    ("kind", "status", "check"),
    [
        (
            "timeout_502",
            502,
            lambda b: json.loads(b)["errors"][0]["message"].startswith("Something went wrong while"),
        ),
        (
            "timeout_200",
            200,
            lambda b: (
                json.loads(b)["data"] is None
                and "This may be the result of a timeout" in json.loads(b)["errors"][0]["message"]
            ),
        ),
        ("html_502", 502, lambda b: b"<title>502 Bad Gateway</title>" in b),
        ("status_500", 500, lambda b: True),
        ("non_json", 200, lambda b: not b.startswith(b"{")),
        ("bad_credentials", 401, lambda b: json.loads(b)["message"] == "Bad credentials"),
        ("rate_limited", 200, lambda b: json.loads(b)["errors"][0]["type"] == "RATE_LIMITED"),
        (
            "rate_limit",
            200,
            lambda b: (
                json.loads(b)["errors"][0] | {"message": ""}
                == {"type": "RATE_LIMIT", "code": "graphql_rate_limit", "message": ""}
            ),
        ),
        ("secondary_limit", 403, lambda b: "secondary rate limit" in json.loads(b)["message"]),
        (
            "malformed",
            200,
            lambda b: (
                "repository" in json.loads(b)["data"]
                and not isinstance(json.loads(b)["data"]["repository"], dict)
            ),
        ),
    ],
)
def test_canned_faults_fire_once(emulator: Server, kind: str, status: int, check: Any) -> None:
    emulator.set_faults([{"kind": kind}])
    got, _, body = _raw(emulator)
    assert got == status and check(body)
    again, _, body = _raw(emulator)
    assert again == 200 and json.loads(body)["data"]["repository"]["issue"]["number"] == 1
    assert [e["fault"] for e in emulator.log()] == [kind, None]


def test_secondary_limit_retry_after_and_status_option(emulator: Server) -> None:
    emulator.set_faults([{"kind": "secondary_limit", "retry_after": 7, "status": 200}])
    status, headers, _ = _raw(emulator)
    assert status == 200 and headers["retry-after"] == "7"


def test_rest_rate_limited_is_a_403_with_remaining_zero_and_the_reset(emulator: Server, client: Any) -> None:
    emulator.set_faults([{"kind": "rest_rate_limited", "endpoint": "rest", "reset_in": 90}])
    reply = client("GET", emulator.base_url + "/repos/octo/demo/issues/1")
    assert reply.status == 403 and reply.json()["message"].startswith("API rate limit exceeded")
    assert reply.headers["x-ratelimit-remaining"] == "0"
    assert 0 < int(reply.headers["x-ratelimit-reset"]) - time.time() <= 90
    emulator.set_faults([{"kind": "rest_rate_limited", "endpoint": "rest", "status": 429}])
    assert client("GET", emulator.base_url + "/repos/octo/demo/issues/1").status == 429


def test_truncated_is_cut_json(emulator: Server) -> None:
    emulator.set_faults([{"kind": "truncated"}])
    status, _, body = _raw(emulator)
    assert status == 200
    with pytest.raises(ValueError, match=r"."):
        json.loads(body)


def test_partial_nulls_the_path_with_a_typed_error(emulator: Server) -> None:
    emulator.set_faults([{"kind": "partial", "path": ["repository", "issue"], "type": "NOT_FOUND"}])
    body = json.loads(_raw(emulator)[2])
    assert body["data"] == {"repository": {"issue": None}}
    assert body["errors"][0]["type"] == "NOT_FOUND" and body["errors"][0]["path"] == ["repository", "issue"]


def test_hang_never_answers(emulator: Server) -> None:
    emulator.set_faults([{"kind": "hang"}])
    with pytest.raises((TimeoutError, socket.timeout)):
        _raw(emulator, timeout=0.5)


def test_reset_closes_the_connection(emulator: Server) -> None:
    emulator.set_faults([{"kind": "reset"}])
    with pytest.raises((ConnectionError, http.client.HTTPException)):
        _raw(emulator)


def test_nth_times_always_and_operation(emulator: Server, client: Any) -> None:
    emulator.set_faults([{"kind": "status_500", "nth": 2, "times": None, "operation": "Probe"}])
    statuses = [_raw(emulator)[0] for _ in range(3)]
    other = client("POST", emulator.url, {"query": "query Other { viewer { login } }"})
    assert statuses == [200, 500, 500] and other.status == 200


def test_faults_from_the_world_and_the_endpoint(
    world: dict[str, Any], client: Any, emulate: Emulators
) -> None:
    world["faults"] = [{"kind": "rate_limited"}, {"kind": "status_500", "endpoint": "rest"}]
    server = emulate(world)
    assert client("POST", server.url, QUERY).json()["errors"][0]["type"] == "RATE_LIMITED"
    assert client("GET", server.base_url + "/repos/octo/demo/issues/1").status == 500
    assert client("GET", server.base_url + "/repos/octo/demo/issues/1").status == 200
    replaced = client("POST", server.base_url + "/_emulator/faults", [{"kind": "html_502"}])
    assert replaced.status == 200
    assert client("POST", server.url, QUERY).status == 502
    assert client("POST", server.base_url + "/_emulator/faults", [{"kind": "nope"}]).status == 400


def test_latency_is_added(world: dict[str, Any], client: Any, emulate: Emulators) -> None:
    server = emulate(world, latency_ms=50)
    client("POST", server.url, QUERY)
    assert server.log()[0]["duration_ms"] >= 50
