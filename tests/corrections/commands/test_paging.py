"""Many reactors are paged within their cap: a pusher's 👎 after 150 others still counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from corrections.commands.cli import main
from queries.permissions import MAX_REST_LOOKUPS
from tests.emulation import Emulators

MARKER = '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["bug"], "duplicate_of": null} -->'


def world(readers: int) -> dict[str, Any]:
    reactions = [
        {"user": f"reader{n}", "content": "THUMBS_DOWN", "at": f"2026-11-02T11:{n // 60:02d}:{n % 60:02d}Z"}
        for n in range(readers)
    ]
    reactions.append({"user": "bob", "content": "THUMBS_DOWN", "at": "2026-11-02T12:00:00Z"})
    return {
        "repository": {"owner": "octo", "name": "busy", "default_branch": "main"},
        "users": {"triage-assistant": "Bot"},
        "viewer": "triage-assistant[bot]",  # the assistant app's token reads (tests/kit/world.py)
        "permissions": {"bob": "WRITE"},
        "files": {"main": {".github/assistant/labels.md": "- `bug`: broken\n"}},
        "issues": [
            {
                "number": 1,
                "title": "Popular crash",
                "body": "",
                "author": "dave",
                "created_at": "2026-11-02T10:00:00Z",
                "timeline": [
                    {
                        "type": "comment",
                        "id": 2_400_000_007,
                        "author": "triage-assistant",
                        "at": "2026-11-02T10:01:00Z",
                        "body": MARKER,
                        "reactions": reactions,
                    }
                ],
            }
        ],
        "pull_requests": [],
        # A pusher's token: GraphQL lists collaborators, so bob is found past REST's cap.
        "collaborators_via_graphql": "allowed",
    }


def test_pusher_after_many_readers_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, emulate: Emulators
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    server = emulate(world(readers=150))
    argv = ["read", "--repo", "octo/busy", "--api-url", server.url, "--out", str(tmp_path)]
    assert main(argv) == 0
    graphql = [entry for entry in server.log() if entry["endpoint"] == "graphql"]
    rest = [entry for entry in server.log() if entry["endpoint"] == "rest"]
    written = json.loads((tmp_path / "corrections.json").read_text(encoding="utf-8"))
    assert written["corrections"] == [
        {
            "number": 1,
            "title": "Popular crash",
            "labels_removed": [],
            "labels_added": [],
            # The analysis put `bug` forward and nobody removed it (the second look's vote).
            "labels_kept": ["bug"],
            "duplicate": None,
            "thumbs_down": 1,
            # bob's 👎, the 151st (12:00): the only one that counts dates the correction.
            "date": "2026-11-02",
        }
    ]
    # Window, 👎 page 1, 👎 page 2 with the permissions of everyone seen: still bounded. The 150
    # readers are not in the collaborator list: REST is asked for at most MAX_REST_LOOKUPS of
    # them, and the note says the others' permissions were not read.
    assert len(graphql) <= 4
    assert len(rest) == MAX_REST_LOOKUPS
    assert f"permissions of {150 - MAX_REST_LOOKUPS} people" in written["note"]


def test_a_brigade_of_thumbs_down_says_the_look_up_cap_was_reached_not_that_github_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, emulate: Emulators
) -> None:
    """150 people without access 👎 one analysis: GitHub answers every look-up asked, and the run
    asks only MAX_REST_LOOKUPS of them. The note says that cap, and how many were not read."""
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    server = emulate(world(readers=150))
    argv = ["read", "--repo", "octo/busy", "--api-url", server.url, "--out", str(tmp_path)]
    assert main(argv) == 0
    assert [entry for entry in server.log() if entry["status"] != 200] == []
    note = json.loads((tmp_path / "corrections.json").read_text(encoding="utf-8"))["note"]
    assert note == (
        "Some corrections were not read: the reader's caps on what one run reads were reached "
        f"(GitHub did not fail): missing permissions of {150 - MAX_REST_LOOKUPS} people (their 👎 and "
        f"comments not counted; at most {MAX_REST_LOOKUPS} are looked up through REST in a run)."
    )
    assert "failed)" not in note and "could not be read from GitHub" not in note


def flooded_world(events: int) -> dict[str, Any]:
    """One analysed issue whose timeline holds thousands of label events by a maintainer."""
    base = world(readers=0)
    flood = [
        {
            "type": "labeled" if n % 2 == 0 else "unlabeled",
            "actor": "bob",
            "label": "bug",
            "at": f"2026-11-03T{n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z",
        }
        for n in range(events)
    ]
    base["issues"][0]["timeline"] += flood
    return base


def test_a_flooded_timeline_says_the_caps_were_reached_not_that_github_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, emulate: Emulators
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    server = emulate(flooded_world(events=3_000))
    argv = ["read", "--repo", "octo/busy", "--api-url", server.url, "--out", str(tmp_path)]
    assert main(argv) == 0
    failures = [entry for entry in server.log() if entry["status"] != 200]
    assert failures == []
    note = json.loads((tmp_path / "corrections.json").read_text(encoding="utf-8"))["note"]
    assert note == (
        "Some corrections were not read: the reader's caps on what one run reads were reached "
        "(GitHub did not fail): missing later pages of some long timelines."
    )
    assert note in (tmp_path / "corrections.md").read_text(encoding="utf-8")
