"""Commit.history (the commits that changed a path, newest first, `until`), Commit.file and
committedDate over a world's `commits` key: what `corrections backtest` reads labels.md's past from."""

from __future__ import annotations

from typing import Any

from tests.emulation import Emulators
from tests.emulator.conftest import http

LABELS = ".github/assistant/labels.md"
QUERY = """query($path: String!, $until: GitTimestamp) { repository(owner: "octo", name: "past") {
  object(expression: "HEAD") { ... on Commit { oid committedDate
    history(path: $path, first: 2, until: $until) { pageInfo { hasNextPage }
      nodes { committedDate message file(path: $path) { name object { ... on Blob { text } } } } } } } } }"""


def _world() -> dict[str, Any]:
    return {
        "repository": {"owner": "octo", "name": "past"},
        "tokens": {"t0ken": "mara"},
        "commits": {
            "main": [
                {"at": "2026-09-01T00:00:00Z", "files": {LABELS: "- `bug`: a\n"}, "message": "one"},
                {
                    "at": "2026-09-10T00:00:00Z",
                    "files": {LABELS: "- `bug`: a\n", "README": "x"},
                    "message": "two",
                },
                {
                    "at": "2026-09-20T00:00:00Z",
                    "files": {LABELS: "- `bug`: a\n- `docs`: d\n"},
                    "message": "three",
                },
                {"at": "2026-09-30T00:00:00Z", "files": {"README": "y"}, "message": "four"},
            ]
        },
    }


def test_history_lists_the_commits_that_changed_the_path_newest_first(emulate: Emulators) -> None:
    server = emulate(_world())

    def history(until: str | None = None) -> dict[str, Any]:
        body = {"query": QUERY, "variables": {"path": LABELS, "until": until}}
        found = http("POST", server.url, body, "t0ken").json()
        assert "errors" not in found, found
        commit: dict[str, Any] = found["data"]["repository"]["object"]
        return commit

    head = history()
    assert head["committedDate"] == "2026-09-30T00:00:00Z"
    # "two" did not change labels.md; "four" deleted it (its file is null); one page of 2 of 3.
    assert [n["message"] for n in head["history"]["nodes"]] == ["four", "three"]
    assert head["history"]["nodes"][0]["file"] is None
    assert head["history"]["nodes"][1]["file"]["object"]["text"] == "- `bug`: a\n- `docs`: d\n"
    assert head["history"]["pageInfo"]["hasNextPage"] is True
    earlier = history("2026-09-15T00:00:00Z")["history"]
    assert [n["message"] for n in earlier["nodes"]] == ["one"] and earlier["pageInfo"]["hasNextPage"] is False
    assert earlier["nodes"][0]["file"] == {"name": "labels.md", "object": {"text": "- `bug`: a\n"}}
    # The branch's head is the last commit's tree.
    assert server.state()["files"]["main"] == {"README": "y"}
