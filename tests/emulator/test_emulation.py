"""The tests' emulator factory (tests/emulation.py): worlds with keys replaced, every server stopped."""

from __future__ import annotations

import socket
from urllib.parse import urlparse

from tests.emulation import DEMO, GITHUB_TOKEN_BUDGET, Emulators, world_dict


def accepts_connections(url: str) -> bool:
    parsed = urlparse(url)
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex((parsed.hostname or "", parsed.port or 0)) == 0


def test_keys_replace_top_level_keys_of_a_copy_of_the_world() -> None:
    before = DEMO.read_text(encoding="utf-8")
    with Emulators() as emulate:
        server = emulate(DEMO, rate_limit=GITHUB_TOKEN_BUDGET, collaborators_via_graphql="allowed")
        plain = emulate()
        assert server.store.file.rate_limit.limit == 1000
        assert server.store.file.collaborators_via_graphql == "allowed"
        # The default is what a workflow's GITHUB_TOKEN gets on github.com: the list refused,
        # GitHub's own budgets (no `limit`: 1,000 points for the workflow tokens, 5,000 for others).
        assert (plain.store.file.rate_limit.limit, plain.store.file.collaborators_via_graphql) == (
            None,
            "forbidden",
        )
        assert plain.store.name_with_owner == "octo/demo"
    assert DEMO.read_text(encoding="utf-8") == before


def test_every_server_started_is_stopped_when_the_factory_closes() -> None:
    with Emulators() as emulate:
        servers = [emulate(), emulate({**world_dict(DEMO), "latency_ms": 0})]
        assert all(accepts_connections(server.url) for server in servers)
    assert not any(accepts_connections(server.url) for server in servers)
