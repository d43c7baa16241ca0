"""The scan for the window is bounded by scan_pages, whatever the repository holds."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from corrections.commands.cli import main
from tests.emulation import Emulators

START = datetime(2026, 10, 1, tzinfo=UTC)


def at(minutes: int) -> str:
    return (START + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def world(total: int, analyzed: int) -> dict[str, Any]:
    """`total` issues; only the `analyzed` oldest have a first analysis (removed `bug` each)."""
    marker = '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["bug"], "duplicate_of": null} -->'
    issues = []
    for number in range(1, total + 1):
        base = number * 10
        timeline: list[dict[str, Any]] = [
            {
                "type": "comment",
                "id": 2_400_010_000 + number,
                "author": "dave",
                "at": at(base + 1),
                "body": "me too",
            }
        ]
        if number <= analyzed:
            timeline = [
                {
                    "type": "comment",
                    "id": 2_400_020_000 + number,
                    "author": "triage-assistant",
                    "at": at(base + 1),
                    "body": marker,
                },
                {"type": "labeled", "actor": "triage-assistant", "label": "bug", "at": at(base + 2)},
                {"type": "unlabeled", "actor": "alice", "label": "bug", "at": at(base + 3)},
            ]
        issues.append(
            {
                "number": number,
                "title": f"Issue {number}",
                "body": "text",
                "author": "dave",
                "created_at": at(base),
                "timeline": timeline,
            }
        )
    return {
        "repository": {"owner": "octo", "name": "big", "default_branch": "main"},
        "users": {"triage-assistant": "Bot"},
        "viewer": "triage-assistant[bot]",  # the assistant app's token reads (tests/kit/world.py)
        "permissions": {"alice": "ADMIN"},
        "files": {"main": {".github/assistant/labels.md": "- `bug`: broken\n"}},
        "issues": issues,
        "pull_requests": [],
    }


@pytest.mark.parametrize(("scan_pages", "pages_read", "window"), [(1, 1, 0), (2, 2, 0), (5, 3, 30)])
def test_scan_reads_at_most_scan_pages(  # noqa: PLR0917 - pytest fixtures and parameters
    scan_pages: int,
    pages_read: int,
    window: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    emulate: Emulators,
) -> None:
    config = tmp_path / "assistant.toml"
    config.write_text(f"[context]\nscan_pages = {scan_pages}\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    server = emulate(world(total=250, analyzed=40))
    argv = ["read", "--repo", "octo/big", "--api-url", server.url, "--out", str(tmp_path / "out")]
    assert main([*argv, "--config", str(config)]) == 0
    operations = [entry.get("operation") for entry in server.log()]
    assert operations.count("CorrectionWindow") == pages_read
    written = json.loads((tmp_path / "out" / "corrections.json").read_text(encoding="utf-8"))
    assert len(written["window"]) == window
    assert written["window"] == sorted(written["window"], reverse=True)
    # The window stays bounded; the horizon adds the older corrected issues of the pages already read
    # (issues 10..1 on the third page, past the window's 30), never another page.
    horizon = list(range(10, 0, -1)) if window else []
    assert written["horizon"] == horizon
    assert [c["number"] for c in written["corrections"]] == [*written["window"], *horizon]
