"""`corrections read` end to end: closed as a duplicate of another issue than the one named is a
correction of the notice (GitHub's `ClosedEvent.duplicateOf`: tests/conformance/recordings/
closed_as_duplicate_of.json for its shape and source)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corrections.commands.cli import main
from tests.emulation import Emulators, world_dict

DUPLICATES = Path(__file__).resolve().parents[2] / "worlds" / "duplicates.json"


def test_closed_as_a_duplicate_of_another_issue_is_read_as_a_correction(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = world_dict(DUPLICATES)
    issue = next(item for item in world["issues"] if item["number"] == 2)  # the notice names #1
    close = next(item for item in issue["timeline"] if item["type"] == "closed")
    close["duplicate_of"] = 3  # mara (ADMIN) chose #3
    server = emulate(world)
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    argv = ["read", "--repo", "octo/duplicates", "--api-url", server.url, "--out", str(tmp_path)]
    assert main(argv) == 0
    written = json.loads((tmp_path / "corrections.json").read_text(encoding="utf-8"))
    two = next(c for c in written["corrections"] if c["number"] == 2)
    assert two["duplicate"] == {"of": 1, "outcome": "objected", "by": "maintainer"}
    text = (tmp_path / "corrections.md").read_text(encoding="utf-8")
    assert "duplicate notice (of #1) objected to by a maintainer: it is a duplicate of #3 instead" in text
    issue_file = (tmp_path / "issues" / "2.md").read_text(encoding="utf-8")
    assert '"mara" closed the issue as DUPLICATE of #3' in issue_file
