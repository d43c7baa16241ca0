"""`learnings sync` under GitHub's 10 s limit (the emulator's server-time model, 2 ms a node).

The scan's full page (30 issues and 30 pull requests with their newest 100 comments, the pull
requests with their newest 10 reviews and 10 review threads of 10 comments: 9,660 nodes) takes
GitHub more than 10 s; the sync asks again with halved pages, as the reader does (one
mechanism: queries.page_sizes.ask_smaller), and records the same learnings.
"""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Server
from tests.writepath.conftest import Sync, build_world
from tests.writepath.test_sync_e2e import FIRST, sources

SERVER_TIME = {"ms_per_node": 2, "answer": "timeout_502"}


@pytest.fixture
def world() -> dict[str, Any]:
    """The write path's world, answered as slowly as GitHub answers big queries."""
    return {**build_world(), "server_time": SERVER_TIME}


def test_the_sync_shrinks_its_pages_when_github_times_out(server: Server, sync: Sync) -> None:
    result = sync()
    assert result.outcome == "recorded"
    assert sources(result.recorded) == FIRST
    scans = [entry for entry in server.log() if entry["operation"] == "LearningSources"]
    # The full page timed out once, was never sent again as it was, and the halved one got through.
    assert [entry["timed_out"] for entry in scans] == [True, False]
    assert scans[0]["nodes"] == 9660 and scans[1]["nodes"] < 5000
    assert any(
        "asking again for 15 issues and 15 pull requests with 50 comments each" in n for n in result.notes
    )
