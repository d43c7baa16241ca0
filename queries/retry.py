"""The retry policy, in one place: what is retried, how often, how long to wait, and the total budget.

Retried: network errors, timeouts, 5xx, unreadable bodies, and secondary rate limits whose
retry-after fits the budget. A primary rate limit is retried only when its reset falls within the
budget (it usually does not: nobody waits an hour in a workflow step). Everything else fails at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from queries.errors import GitHubError, RateLimited, SecondaryRateLimited

# GitHub: without retry-after, wait at least a minute before retrying a secondary limit.
# https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#handle-rate-limit-errors-appropriately
SECONDARY_DEFAULT_WAIT = 60.0


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries with exponential backoff and full jitter."""

    max_attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    # GitHub kills a request after 10 s; a little more covers the answer's transfer.
    request_timeout: float = 15.0
    # Total time the reading may take, retries included (a workflow step should not hang).
    total_budget: float = 45.0
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def delay(self, attempt: int, error: GitHubError) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None when `error` is not retried."""
        if attempt >= self.max_attempts:
            return None
        if isinstance(error, SecondaryRateLimited):
            return error.retry_after if error.retry_after is not None else SECONDARY_DEFAULT_WAIT
        if isinstance(error, RateLimited):
            return error.reset_in
        if not error.retryable:
            return None
        ceiling = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        return self.rng.uniform(self.base_delay / 2, ceiling)
