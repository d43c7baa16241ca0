"""What a reading cost, counted by the client and reported by the renderers: plain values, no I/O.

Apart from `queries.client` so that what a run produced (`corrections.read.outcome`) and its renderers
do not import the network stack.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Usage:
    """What the reading cost: requests sent (retries included), points, bytes, time."""

    graphql_requests: int = 0
    rest_requests: int = 0
    points: int = 0
    remaining: int | None = None
    bytes_received: int = 0
    retries: int = 0
    seconds: float = 0.0

    @property
    def requests(self) -> int:
        """All requests, GraphQL and REST."""
        return self.graphql_requests + self.rest_requests

    def note_rate_limit(self, data: object) -> None:
        """Count the points an answer's `rateLimit { cost remaining }` reports, and what is left."""
        if isinstance(data, dict):
            info = data.get("rateLimit")
            if isinstance(info, dict):
                cost, remaining = info.get("cost"), info.get("remaining")
                if isinstance(cost, int):
                    self.points += cost
                if isinstance(remaining, int):
                    self.remaining = remaining
