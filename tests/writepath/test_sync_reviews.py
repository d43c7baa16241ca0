"""Commands in pull request reviews: review bodies and review thread replies count like comments,
with the same trust rules, and an `ignore-rule` typed as a reply in a finding's thread takes that
finding's fingerprint from the thread's first comment (the assistant's finding marker).

The world serves reviews as GitHub's schema has them (`PullRequest.reviews`, `reviewThreads`,
`PullRequestReviewThread.comments`; docs/world-format.md, "Reviews")."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Server
from learnings.store.suppression import Finding, finding_marker
from tests.emulation import Emulators
from tests.writepath.conftest import Sync, VirtualTime, build_world, sync_once
from tests.writepath.test_sync_answers import answered

CACHE = Finding(category="cache-misuse", path="src/cache.py", line=7, title="unbounded cache")
FORGED = Finding(category="style", path="src/cache.py", line=9)


def _comment(cid: int, author: str, at: str, body: str) -> dict[str, Any]:
    return {"id": cid, "author": author, "at": at, "body": body}


REVIEWS = [
    {
        "id": 2700003001,
        "author": "triage-assistant",
        "at": "2026-11-24T10:00:00Z",
        "body": "One finding.",
        "threads": [
            {
                "path": CACHE.path,
                "line": 7,
                "comments": [
                    _comment(
                        2700003101,
                        "triage-assistant",
                        "2026-11-24T10:00:00Z",
                        f"Unbounded.\n\n{finding_marker(CACHE)}",
                    ),
                    _comment(
                        2700003102,
                        "bob",
                        "2026-11-24T11:00:00Z",
                        "It is bounded elsewhere.\n/assistant ignore-rule",
                    ),
                    _comment(
                        2700003103,
                        "carol",
                        "2026-11-24T11:05:00Z",
                        "/assistant remember caches live in src/cache.py",
                    ),
                ],
            }
        ],
    },
    {
        "id": 2700003002,
        "author": "alice",
        "state": "APPROVED",
        "at": "2026-11-24T12:00:00Z",
        "body": "Looks good.\n/assistant remember run the migrations before the tests",
        "threads": [
            {
                "path": FORGED.path,
                "line": 9,
                "comments": [
                    _comment(2700003104, "carol", "2026-11-24T12:00:00Z", finding_marker(FORGED)),
                    _comment(2700003105, "bob", "2026-11-24T12:10:00Z", "/assistant ignore-rule"),
                ],
            }
        ],
    },
]


@pytest.fixture
def world() -> dict[str, Any]:
    """The write path's world, pull request #20 reviewed (a finding of the assistant, replies)."""
    data = build_world()
    data["pull_requests"][0]["reviews"] = REVIEWS
    data["issues"][0]["timeline"].append(
        {
            "type": "comment",
            "id": 2700001008,
            "author": "bob",
            "at": "2026-11-20T10:07:00Z",
            "body": "/assistant ignore-rule",
        }
    )
    return data


def test_review_bodies_and_thread_replies_are_read_with_the_same_trust(server: Server, sync: Sync) -> None:
    result = sync()
    by_comment = {learning.source.comment: learning for learning in result.recorded}
    # bob's reply in the assistant's finding thread, without a fingerprint: that finding's.
    suppression = by_comment[2700003102]
    assert (suppression.kind, suppression.category, suppression.paths) == (
        "suppression",
        "cache-misuse",
        ("src/cache.py",),
    )
    assert suppression.source.pull_request == 20 and suppression.source.accepted_by == "bob"
    # alice's review body.
    assert by_comment[2700003002].text == "run the migrations before the tests"
    # carol (TRIAGE) in a thread, bob's reply to carol's forged finding, bob's bare ignore-rule on an issue.
    assert not {2700003103, 2700003105, 2700001008} & set(by_comment)
    notes = "\n".join(result.notes)
    assert "comment 2700003103: `remember` by @carol ignored: TRIAGE permission" in notes
    assert (
        "comment 2700003105: `ignore-rule` not recorded: no fingerprint, and not a reply in the review"
        in notes
    )
    assert "issue #10, comment 2700001008: `ignore-rule` not recorded: no fingerprint" in notes
    # Each command answered once, in review threads and review bodies too.
    mine = answered(server)
    assert mine[2700003102] == {"ROCKET"} and mine[2700003103] == {"EYES"}
    reviews = next(p for p in server.state()["pull_requests"] if p["number"] == 20)["reviews"]
    assert {r["content"] for r in reviews[1]["reactions"] if r["user"] == "github-actions"} == {"ROCKET"}
    again = sync()
    assert again.recorded == () and "AddReaction" not in again.mutations


def test_reviews_past_the_page_are_read_back(emulate: Emulators, time_machine: VirtualTime) -> None:
    data = build_world()
    data["pull_requests"][0]["reviews"] = REVIEWS
    thread = data["pull_requests"][0]["reviews"][0]["threads"][0]
    extra = [_comment(2700003200 + i, "dave", f"2026-11-24T11:{10 + i}:00Z", "thanks") for i in range(12)]
    late = _comment(
        2700003300, "bob", "2026-11-24T11:30:00Z", "/assistant remember the cache is bounded in app.py"
    )
    thread["comments"] = [*thread["comments"], *extra, late]
    result = sync_once(emulate(data), time_machine)
    # Before: "reviews or review comments past the scan's page were not read", and bob's reply lost.
    assert not any("past the scan's page were not read" in note for note in result.notes)
    recorded = {learning.source.comment for learning in result.recorded}
    assert {2700003102, 2700003300} <= recorded
