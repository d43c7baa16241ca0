"""Shapes of GitHub's current answers (tests/conformance/recordings/, each file naming its source
and licence) that the emulator must give too: same keys, `__typename`s and nullability."""

from __future__ import annotations

from typing import Any

from tests.conformance.test_recordings import post, recording, shape
from tests.emulation import Emulators, world_dict
from tests.emulator.conftest import SMALL_WORLD


def closed_as_duplicate_of_three() -> dict[str, Any]:
    """The small world with issue 2 closed as a duplicate of #3 (it was marked one of #1 before)."""
    world = world_dict(SMALL_WORLD)
    timeline = world["issues"][1]["timeline"]
    close = next(item for item in timeline if item["type"] == "closed")
    timeline.remove(close)
    timeline.append({**close, "duplicate_of": 3, "at": "2026-11-02T11:00:02Z"})
    return world


def test_a_close_as_a_duplicate_says_which_issue(emulate: Emulators) -> None:
    recorded = recording("closed_as_duplicate_of")
    server = emulate(closed_as_duplicate_of_three())
    answer = post(
        server,
        """{ repository(owner: "octo", name: "demo") { issue(number: 2) { stateReason
        duplicateOf { number } timelineItems(first: 5, itemTypes: [CLOSED_EVENT]) { nodes { __typename
        ... on ClosedEvent { stateReason duplicateOf { __typename ... on Issue { number } } } } } } } }""",
    )
    assert answer.status == recorded["status"]
    body = answer.json()
    assert shape(body) == shape(recorded["response"])
    assert body == recorded["response"]
