"""A cursor that does not advance ends every paged read with BadResponse, never a loop or silence.

GitHub pages connections with cursors; an answer that says more pages follow but gives no cursor,
or gives back the cursor it was asked with, would be asked again and again (the correction scan
did so up to its cap), or end the read without saying so (pull request comments did). The
emulator's real answers are passed through a client that makes one connection's cursor stand
still, as such an answer would.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

import pytest

from assistant.config import Config
from corrections.read.options import ReadOptions
from corrections.read.round_trips import read_corrections
from corrections.read.status import Partial
from emulator import Server
from queries.client import Answer, GitHubClient
from queries.document_text import OperationText
from queries.documents import Operation
from queries.errors import BadResponse
from queries.page_sizes import SourceSizes
from queries.sync_fetch import Marks, fetch_pull_comments, fetch_threads
from tests.emulation import Emulators
from tests.writepath.conftest import build_world

Stuck = Literal["same", "none"]


class StuckCursor(GitHubClient):
    """GitHub's answers, but one connection's cursor stands still after the first page.

    `same`: every later page gives back the cursor it was asked with; `none`: every page says more
    follow and gives no cursor. Either way every page says more pages follow.
    """

    def __init__(
        self,
        url: str,
        *,
        operation: str,
        path: tuple[str, ...],
        variable: str,
        backwards: bool = False,
        stuck: Stuck,
    ) -> None:
        super().__init__(url, "t0ken")
        self.operation, self.path, self.variable, self.stuck = operation, path, variable, stuck
        self.more_key, self.cursor_key = (
            ("hasPreviousPage", "startCursor") if backwards else ("hasNextPage", "endCursor")
        )
        self.sent = 0

    async def execute(
        self, operation: Operation | OperationText, variables: Mapping[str, Any], *, shrinkable: bool = False
    ) -> Answer:
        answer = await super().execute(operation, variables, shrinkable=shrinkable)
        if operation.name != self.operation:
            return answer
        self.sent += 1
        data = copy.deepcopy(answer.data)
        info = data
        for key in self.path:
            info = info[key]
        asked = variables.get(self.variable)
        info[self.more_key] = True
        if self.stuck == "none":
            info[self.cursor_key] = None
        elif asked is not None:
            info[self.cursor_key] = asked
        return dataclasses.replace(answer, data=data)


@pytest.fixture(scope="module")
def server(emulate_module: Emulators) -> Server:
    return emulate_module(build_world())


@pytest.mark.parametrize("stuck", ["same", "none"])
def test_the_learnings_scan_raises(server: Server, stuck: Stuck) -> None:
    """Before: the scan stopped silently at a page without a cursor."""

    async def scan() -> None:
        async with StuckCursor(
            server.url,
            operation="LearningSources",
            path=("repository", "issues", "pageInfo"),
            variable="issuesAfter",
            stuck=stuck,
        ) as client:
            with pytest.raises(BadResponse, match="issues cursor did not advance"):
                await fetch_threads(
                    client,
                    "octo",
                    "demo",
                    marks=Marks(),
                    points=100,
                    max_pages=5,
                    sizes=SourceSizes(threads=1),
                )
            assert client.sent == (2 if stuck == "same" else 1)

    asyncio.run(scan())


@pytest.mark.parametrize("stuck", ["same", "none"])
def test_reading_pull_request_comments_raises(server: Server, stuck: Stuck) -> None:
    """Before: the read stopped silently, as if the pages read were all there was to read."""

    async def read() -> None:
        async with StuckCursor(
            server.url,
            operation="PullRequestComments",
            path=("repository", "pullRequest", "comments", "pageInfo"),
            variable="before",
            backwards=True,
            stuck=stuck,
        ) as client:
            with pytest.raises(BadResponse, match="comments cursor did not advance"):
                await fetch_pull_comments(client, "octo", "demo", 20)
            assert client.sent == (2 if stuck == "same" else 1)

    asyncio.run(read())


@pytest.mark.parametrize("stuck", ["same", "none"])
def test_the_correction_scan_stops_and_says_so(server: Server, stuck: Stuck) -> None:
    """Before: the scan asked for the same page again until its cap of pages, and said nothing."""

    async def read() -> tuple[Partial, int]:
        async with StuckCursor(
            server.url,
            operation="CorrectionWindow",
            path=("repository", "issues", "pageInfo"),
            variable="after",
            stuck=stuck,
        ) as client:
            outcome = await read_corrections(
                client, ReadOptions(owner="octo", name="demo", config=Config()), lambda _: None
            )
            assert isinstance(outcome.status, Partial)
            return outcome.status, client.sent

    status, sent = asyncio.run(read())
    assert sent == (2 if stuck == "same" else 1)
    assert "scan" in status.missing
    assert "unreadable response" in status.note
