"""The retry policy on its own: seeded jitter, no sleeping (delays are computed, not waited)."""

from __future__ import annotations

import asyncio
import random

import pytest

from queries.client import GitHubClient
from queries.errors import (
    BadCredentials,
    BadResponse,
    GitHubError,
    NetworkError,
    NotFound,
    PermissionDenied,
    QueryRefused,
    RateLimited,
    RequestTimeout,
    SecondaryRateLimited,
    ServerError,
)
from queries.retry import REQUEST_TIMEOUT, SECONDARY_DEFAULT_WAIT, RetryPolicy


def policy(**changes: object) -> RetryPolicy:
    return RetryPolicy(rng=random.Random(8), **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "error",
    [NetworkError("x"), RequestTimeout("x"), ServerError("x", status=502), BadResponse("x")],
    ids=lambda e: type(e).__name__,
)
def test_transient_failures_are_retried_with_growing_jittered_backoff(error: GitHubError) -> None:
    rules = policy(base_delay=0.5, max_delay=8.0, max_attempts=6)
    delays = [rules.delay(attempt, error) for attempt in range(1, 6)]
    assert all(d is not None for d in delays)
    for attempt, delay in enumerate(delays, start=1):
        assert delay is not None
        assert 0.25 <= delay <= min(8.0, 0.5 * 2 ** (attempt - 1))
    assert rules.delay(6, error) is None, "at most max_attempts attempts"


def test_jitter_is_random_but_reproducible_with_a_seed() -> None:
    error = ServerError("x", status=500)
    one, two = policy(max_attempts=10), policy(max_attempts=10)
    three = RetryPolicy(rng=random.Random(9), max_attempts=10)
    first = [one.delay(5, error) for _ in range(8)]
    again = [two.delay(5, error) for _ in range(8)]
    other = [three.delay(5, error) for _ in range(8)]
    assert first == again
    assert first != other
    assert len(set(first)) == len(first), "each wait is drawn anew"


@pytest.mark.parametrize(
    "error",
    [
        BadCredentials("x", status=401),
        PermissionDenied("x", status=403),
        NotFound("x"),
        QueryRefused("x"),
        RateLimited("x"),  # no reset known
    ],
    ids=lambda e: type(e).__name__,
)
def test_permanent_failures_are_not_retried(error: GitHubError) -> None:
    assert not RetryPolicy.retried(error)
    assert policy().delay(1, error) is None


def test_secondary_limit_waits_retry_after_plus_a_little_jitter() -> None:
    rules = policy(wait_jitter=0.5)
    delay = rules.delay(1, SecondaryRateLimited("x", retry_after=3))
    assert delay is not None and 3.0 <= delay <= 3.5
    without = rules.delay(1, SecondaryRateLimited("x", retry_after=None))
    assert without is not None and SECONDARY_DEFAULT_WAIT <= without <= SECONDARY_DEFAULT_WAIT + 0.5


def test_primary_limit_waits_for_the_reset_only_within_the_budget() -> None:
    rules = policy(total_budget=45.0)
    soon = RateLimited("x", reset_in=2.0)
    assert rules.wait(1, soon, remaining=40.0) is not None
    an_hour = RateLimited("x", reset_in=3600.0)
    assert rules.delay(1, an_hour) is not None  # honoured in principle ...
    assert rules.wait(1, an_hour, remaining=40.0) is None  # ... but nobody waits an hour in a step


def test_a_wait_must_leave_time_for_the_attempt() -> None:
    rules = policy(min_attempt=0.25)
    limited = SecondaryRateLimited("x", retry_after=1)
    assert rules.wait(1, limited, remaining=10.0) is not None
    assert rules.wait(1, limited, remaining=1.2) is None
    assert rules.wait(1, ServerError("x"), remaining=0.2) is None


def test_request_timeout_follows_the_budget() -> None:
    assert RetryPolicy().total_budget == 45.0
    assert RetryPolicy.for_budget(45.0).request_timeout == REQUEST_TIMEOUT
    assert RetryPolicy.for_budget(3.0).request_timeout == 1.0
    assert RetryPolicy.for_budget(0.3).request_timeout == 0.5
    rules = RetryPolicy.for_budget(3.0)
    assert rules.timeout(remaining=0.4) == 0.4
    assert rules.timeout(remaining=-1.0) == 0.0


def test_client_retries_through_the_injected_sleep_and_gives_up_on_the_policy(
    closed_port_url: str,
) -> None:
    """Over a closed port: every attempt fails fast; the client sleeps only through `sleep`."""
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def run() -> GitHubError:
        rules = RetryPolicy(total_budget=600.0, max_attempts=4, rng=random.Random(1))
        async with GitHubClient(closed_port_url, "t", policy=rules, sleep=sleep) as client:
            try:
                await client.rest_get("/rate_limit")
            except GitHubError as error:
                assert client.usage.retries == 3
                return error
        raise AssertionError("a closed port answered")

    error = asyncio.run(run())
    assert isinstance(error, NetworkError)
    expected_rng = random.Random(1)
    assert slept == [expected_rng.uniform(0.25, ceiling) for ceiling in (0.5, 1.0, 2.0)]
