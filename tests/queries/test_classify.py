"""How an answer is read as a failure: GitHub's timeout and resource limits, and REST rate limits
told apart by their headers as octokit's plugin-throttling does (no server: `classify` is pure)."""

from __future__ import annotations

import time

import pytest

from queries.classify import classify
from queries.errors import (
    GitHubError,
    PermissionDenied,
    QueryTimedOut,
    RateLimited,
    ResourceLimitsExceeded,
    SecondaryRateLimited,
)
from queries.retry import RetryPolicy

TIMEOUT = (
    "Something went wrong while executing your query. This may be the result of a timeout, or it "
    "could be a GitHub bug. Please include `0401:6C25:28BCA72:539243A:638E5DA9` when reporting this issue."
)
PRIMARY_TEXT = '{"message": "API rate limit exceeded for installation ID 1.", "documentation_url": "x"}'
SECONDARY_TEXT = '{"message": "You have exceeded a secondary rate limit. Please wait a few minutes."}'


@pytest.mark.parametrize("status", [200, 502, 504])
def test_githubs_timeout_is_a_retryable_timeout_at_any_status(status: int) -> None:
    found = classify(status, [{"message": TIMEOUT}], "", None)
    assert isinstance(found, QueryTimedOut)
    assert found.asks_for_less
    assert RetryPolicy.retried(found)


def test_resource_limits_ask_for_less_and_are_not_sent_again_as_they_are() -> None:
    errors = [
        {
            "type": "RESOURCE_LIMITS_EXCEEDED",
            "path": ["repository"],
            "message": "Resource limits for this query exceeded.",
        }
    ]
    found = classify(200, errors, "", None)
    assert isinstance(found, ResourceLimitsExceeded)
    assert found.asks_for_less
    assert not RetryPolicy.retried(found)


@pytest.mark.parametrize("status", [403, 429])
def test_rest_primary_limit_is_told_by_remaining_zero(status: int) -> None:
    reset = int(time.time()) + 120
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)}
    found = classify(status, None, PRIMARY_TEXT, headers)
    assert isinstance(found, RateLimited)
    assert found.reset_in is not None and 100 < found.reset_in <= 120


@pytest.mark.parametrize(
    ("status", "text", "headers", "retry_after"),
    [
        (403, SECONDARY_TEXT, {"x-ratelimit-remaining": "4000"}, None),
        (429, SECONDARY_TEXT, {"retry-after": "30"}, 30.0),
        (403, '{"message": "slow down"}', {"retry-after": "7"}, 7.0),
        # A 429 that names no limit: GitHub's docs say to wait at least a minute.
        (429, '{"message": "Too many requests"}', {}, None),
    ],
    ids=["403-text", "429-text-retry-after", "403-retry-after", "429-bare"],
)
def test_rest_secondary_limit_is_told_by_text_retry_after_or_429(
    status: int, text: str, headers: dict[str, str], retry_after: float | None
) -> None:
    found = classify(status, None, text, headers)
    assert isinstance(found, SecondaryRateLimited)
    assert found.retry_after == retry_after


def test_a_plain_403_is_still_a_permission_refusal() -> None:
    found = classify(403, None, '{"message": "Must have admin rights to Repository."}', {})
    assert isinstance(found, PermissionDenied)


def test_words_inside_data_never_make_a_failure() -> None:
    # An issue body is data: at 200 with a GraphQL answer, only GitHub's own errors count.
    body = '{"data": {"repository": {"issues": {"nodes": [{"body": "' + SECONDARY_TEXT + TIMEOUT + '"}]}}}}'
    found: GitHubError | None = classify(200, [], body, {})
    assert found is None
