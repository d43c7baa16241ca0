"""The retry policy, in one place: what is retried, how often, how long to wait, and the total budget.

| failure                                  | retried? | wait before the next attempt                  |
|------------------------------------------|----------|-----------------------------------------------|
| network error (refused, reset, closed)   | yes      | exponential backoff with full jitter          |
| timeout of one request                   | yes      | exponential backoff with full jitter          |
| HTTP 5xx (GitHub's 502 timeout JSON, HTML)| yes     | exponential backoff with full jitter          |
| GitHub's timeout ("Something went wrong while executing your query", HTTP 200 or 502) | yes, unless the reader asks again with smaller pages | exponential backoff with full jitter |
| RESOURCE_LIMITS_EXCEEDED (HTTP 200)      | no: the reader asks again with smaller pages | - |
| unreadable body (not JSON, cut off)      | yes      | exponential backoff with full jitter          |
| secondary rate limit (403, 429 or 200: its text, or `retry-after`, or any other 429) | yes | `retry-after` (else 60 s), plus a little jitter |
| primary rate limit (RATE_LIMITED, RATE_LIMIT; REST 403/429 with `x-ratelimit-remaining: 0`) | only if the reset falls in the budget | until `x-ratelimit-reset`, plus jitter |
| 401 bad credentials, 403 forbidden, 404, a refused query, a body that does not match the models | no | - |

Every wait must fit in what is left of the total budget (`total_budget`, seconds from the
client's start, retries and waits included): a wait that does not fit ends the retries at once, so
nobody waits an hour for a reset in a workflow step. At most `max_attempts` attempts per request.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from queries.defaults import DEFAULT_BUDGET
from queries.errors import GitHubError, RateLimited, SecondaryRateLimited

# GitHub: without retry-after, wait at least a minute before retrying a secondary limit.
# https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#handle-rate-limit-errors-appropriately
SECONDARY_DEFAULT_WAIT = 60.0
# GitHub kills a request after 10 s; a little more covers the answer's transfer.
# https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#timeouts
REQUEST_TIMEOUT = 15.0
# The shortest request timeout a small budget still gets.
MIN_REQUEST_TIMEOUT = 0.5


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries with exponential backoff and full jitter, inside a total time budget."""

    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    # Extra random wait (0 to this many seconds) added to a server-given wait, so that many
    # workflow runs limited at once do not all come back in the same second.
    wait_jitter: float = 0.5
    request_timeout: float = REQUEST_TIMEOUT
    # The least time an attempt must have left in the budget to be worth making.
    min_attempt: float = 0.25
    total_budget: float = DEFAULT_BUDGET
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    @classmethod
    def for_budget(cls, total_budget: float, rng: random.Random | None = None) -> RetryPolicy:
        """A policy for a total budget: one request may take a third of it (at most 15 s).

        So a budget always leaves room for a retry after a request that never answered.
        """
        timeout = min(REQUEST_TIMEOUT, max(MIN_REQUEST_TIMEOUT, total_budget / 3))
        return cls(total_budget=total_budget, request_timeout=timeout, rng=rng or random.Random())  # noqa: S311 - jitter, not secrets

    @staticmethod
    def retried(error: GitHubError) -> bool:
        """Whether a failure of this kind is ever retried (a rate limit only with a known reset)."""
        if isinstance(error, RateLimited):
            return error.reset_in is not None
        return error.retryable

    def delay(self, attempt: int, error: GitHubError) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None when `error` is not retried.

        `attempt` counts from 1 (the attempt that just failed).
        """
        if attempt >= self.max_attempts or not self.retried(error):
            return None
        if isinstance(error, SecondaryRateLimited):
            wait = error.retry_after if error.retry_after is not None else SECONDARY_DEFAULT_WAIT
            return max(0.0, wait) + self.rng.uniform(0, self.wait_jitter)
        if isinstance(error, RateLimited):
            assert error.reset_in is not None
            return max(0.0, error.reset_in) + self.rng.uniform(0, self.wait_jitter)
        ceiling = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        return self.rng.uniform(self.base_delay / 2, ceiling)

    def wait(self, attempt: int, error: GitHubError, remaining: float) -> float | None:
        """The wait before the next attempt when it and an attempt fit in `remaining` seconds, else None."""
        delay = self.delay(attempt, error)
        # A retry needs time to be answered too: a wait that leaves less than that is no use.
        if delay is None or delay + self.min_attempt >= remaining:
            return None
        return delay

    def timeout(self, remaining: float) -> float:
        """Seconds the next request may take: its own timeout, within what is left of the budget."""
        return max(0.0, min(self.request_timeout, remaining))
