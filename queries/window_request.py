"""Sending one scan page's request (`CorrectionWindow`), and sending it early.

A read's first request does not depend on anything GitHub says, so the read sends it as soon as
the HTTP client is loaded and loads the rest of the reader (gql and graphql-core, pydantic, the
models, the rules) while GitHub answers. `EarlyRequest` holds that request, and the ask it was
sent for, until the scan takes it as its first page. No pydantic and no graphql-core here: this
module is loaded before them. A scan page's document is sent as text (queries/document_text.py;
queries.fetch parses the answer).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from queries.document_text import operation_text
from queries.requests import WindowAsk

if TYPE_CHECKING:
    from queries.client import Answer, GitHubClient


async def send_window(client: GitHubClient, ask: WindowAsk) -> Answer:
    """Send one scan page's request; the answer is parsed by queries.fetch."""
    return await client.execute(
        operation_text("CorrectionWindow"), ask.variables(), shrinkable=ask.shrinkable
    )


class EarlyRequest:
    """A scan page's request sent before the scan asked for it; its answer is taken once.

    `discard` ends it when the scan did not use it (cancelled if still in flight; an error it
    ended with is dropped, since no one asked for its answer).
    """

    def __init__(self, client: GitHubClient, ask: WindowAsk, task: asyncio.Task[Answer]) -> None:
        self._client = client
        self.ask = ask
        self.taken = False  # whether a scan page used the answer
        self._task: asyncio.Task[Answer] | None = task

    @classmethod
    def send(cls, client: GitHubClient, ask: WindowAsk) -> EarlyRequest:
        """Start sending `ask` now; the answer waits in the task."""
        return cls(client, ask, asyncio.ensure_future(send_window(client, ask)))

    async def left(self) -> None:
        """Return once the request has been sent, or has ended (answered or failed)."""
        task = self._task
        if task is None:
            return
        sent = asyncio.ensure_future(self._client.request_left())
        try:
            await asyncio.wait({sent, task}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sent.cancel()

    def take(self) -> asyncio.Task[Answer] | None:
        """The request's task, when it was not taken (nor discarded) yet, else None."""
        task = self._task
        if task is None:
            return None
        self._task = None
        self.taken = True
        return task

    async def discard(self) -> None:
        """End the request if no scan page took it."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        # Waits for the cancellation; the request's own end (an answer, an error) is of no use.
        await asyncio.gather(task, return_exceptions=True)
