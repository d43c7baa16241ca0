"""What a read's caller needs only afterwards (the renderers) is loaded while a later request is in
flight, in a thread, and the read returns once it is loaded (corrections/read/entry.py)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from corrections.read import entry
from corrections.read.options import build_options
from queries.client import GitHubClient
from tests.emulation import Emulators


def test_the_caller_s_modules_load_beside_the_second_request(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = emulate()
    monkeypatch.chdir(tmp_path)
    options = build_options(repo="octo/demo", config_path=None, api_url=server.url)
    seen: dict[str, object] = {}
    loop_thread = threading.get_ident()
    clients: list[GitHubClient] = []
    opened = GitHubClient.__aenter__

    async def enter(self: GitHubClient) -> GitHubClient:
        clients.append(self)
        return await opened(self)

    monkeypatch.setattr(GitHubClient, "__aenter__", enter)

    def load() -> None:
        seen["thread"] = threading.get_ident()
        seen["requests_then"] = clients[0].requests_out
        seen["ended"] = True

    outcome = asyncio.run(entry.read(options, "ghs_x", lambda _: None, load_later=load))
    assert len(outcome.window) == 30
    assert seen.get("ended") is True  # the read returned after it, not beside it
    assert seen["thread"] != loop_thread
    # Not before the first answer was used: the second request had gone out.
    assert isinstance(seen["requests_then"], int)
    assert seen["requests_then"] >= 2
    assert len(server.log()) > 2


def test_nothing_is_loaded_when_no_request_follows() -> None:
    """A read that ends before another request (nothing to wait beside) leaves the loading to
    the caller, as without it; the read does not wait for a request that never comes."""
    called: list[bool] = []

    async def run() -> bool:
        async with GitHubClient("http://127.0.0.1:9/graphql", "ghs_x") as client:
            later = entry._Later(client, lambda: called.append(True))
            await asyncio.sleep(0)
            await later.settle()
            return later.started

    assert asyncio.run(run()) is False
    assert called == []
