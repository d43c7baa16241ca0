"""An echo at the END of a comment is no analysis with a shared account, end to end (docs/security.md,
"Shared accounts").

A welcome workflow posts as `github-actions`, as the analysis does: its message ends with the new
issue's title, which mallory ended with an analysis marker naming `docs`; it came 55 s before the
real analysis. The echo was the first analysis: alice's removal of `bug` and her 👎 on the real
one disappeared. Now, without the marker key, an analysis marker counts only alone on its
comment's last line (as `corrections answer` writes it); with the key, only sealed for its issue.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from corrections.rules.analysis_marker import analysis_marker
from tests.emulation import Emulators
from tests.reliability.test_trust import at, corrections_of, issue, thumbs_down, world

KEY = "a secret of the assistant's jobs"
ECHO = '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["docs"], "duplicate_of": null} -->'


def _world(real_marker: str) -> dict[str, Any]:
    timeline: list[dict[str, Any]] = [
        {
            "type": "comment",
            "id": 2_400_008_001,
            "author": "github-actions",
            "at": "2026-11-01T10:00:05Z",
            "body": f"Thanks for opening an issue! We will look at it soon.\n\nYou opened: Crash on start {ECHO}",
        },
        {
            "type": "comment",
            "id": 2_400_008_002,
            "author": "github-actions",
            "at": "2026-11-01T10:01:00Z",
            "body": f"A crash on start.\n\n{real_marker}\n",
            "reactions": thumbs_down("mara"),
        },
        {"type": "labeled", "actor": "github-actions", "label": "bug", "at": at(1)},
        {"type": "unlabeled", "actor": "mara", "label": "bug", "at": at(4)},
    ]
    data = world([issue(1, timeline)])
    data["users"]["github-actions"] = "Bot"
    return data


@pytest.mark.parametrize("key", [None, KEY], ids=["without the key", "with the key"])
def test_an_echo_at_the_end_of_a_welcome_comment_is_no_analysis(
    key: str | None, read_cli: Any, tmp_path: Path, emulate: Emulators, monkeypatch: pytest.MonkeyPatch
) -> None:
    if key is None:
        monkeypatch.delenv("ASSISTANT_MARKER_KEY", raising=False)
    else:
        monkeypatch.setenv("ASSISTANT_MARKER_KEY", key)
    server = emulate(_world(analysis_marker(["bug"], number=1, key=key)))
    run = read_cli(server.url, tmp_path, "--assistant-login", "github-actions", repo="octo/trust")
    assert run.status == 0
    found = corrections_of(run)[1]
    # Before: the welcome message was the analysis (labels ["docs"]); mara's 👎 and removal of bug gone.
    assert found["thumbs_down"] == 1
    assert found["labels_removed"] == ["bug"]
