"""labels.md and learnings.jsonl above GitHub's 512,000-byte cut of `Blob.text`, end to end.

The reader uses what GitHub gave up to its last whole line (the cut line could be half a label
or half a JSON line) and warns that the file was cut; `learnings sync` refuses to rewrite a store
it could not read whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.emulation import Emulators
from tests.reliability.test_trust import at, corrections_of, first_analysis, issue, world

CUT = 512_000


def padded_labels() -> str:
    """`bug` declared first, then filler past the cut, then `late` (which GitHub never sends)."""
    head = "- `bug`: broken\n- `enhancement`: new\n"
    filler = "".join(f"Notes line {i:06d} about the vocabulary.\n" for i in range(14_000))
    text = head + filler + "- `late`: declared after the cut\n"
    assert len(head.encode()) < CUT < len(text.encode()) - 40
    return text


def padded_learnings() -> str:
    """Whole JSON lines; the one across the cut is half a line in GitHub's answer."""
    lines = []
    for index in range(3_000):
        record = {
            "v": 1,
            "id": f"l_{index:04x}",
            "scope": "repo",
            "kind": "note",
            "text": f"Learning number {index} " + "x" * 150,
            "paths": [],
            "category": None,
            "source": {"issue": 1, "comment": 2_400_000_001},
            "createdAt": "2026-10-01T00:00:00Z",
            "updatedAt": "2026-10-01T00:00:00Z",
            "status": "active",
        }
        lines.append(json.dumps(record) + "\n")
    text = "".join(lines)
    assert len(text.encode()) > CUT
    return text


def test_truncated_labels_and_learnings_are_read_up_to_the_cut(
    read_cli: Any, tmp_path: Path, emulate: Emulators
) -> None:
    timeline = [
        first_analysis(1, ["bug"]),
        {"type": "labeled", "actor": "triage-assistant", "label": "bug", "at": at(3)},
        {"type": "unlabeled", "actor": "mara", "label": "bug", "at": at(4)},
        {"type": "labeled", "actor": "mara", "label": "late", "at": at(5)},
    ]
    files = {
        ".github/assistant/labels.md": padded_labels(),
        ".github/assistant/learnings.jsonl": padded_learnings(),
    }
    server = emulate(world([issue(1, timeline)], files={"main": files}))
    run = read_cli(server.url, tmp_path, repo="octo/trust", budget=20.0)
    assert run.status == 0
    found = corrections_of(run)
    assert found[1]["labels_removed"] == ["bug"]
    assert found[1]["labels_added"] == [], "`late` is past the cut: not in the vocabulary read"
    warnings = run.warnings  # `::warning` lines: the test runs as inside GitHub Actions
    cut_warnings = [w for w in warnings if "512,000 bytes" in w]
    assert len(cut_warnings) == 2
    assert any("labels.md" in w for w in cut_warnings) and any("learnings.jsonl" in w for w in cut_warnings)
    assert len(warnings) == 2, "the cut JSON line is dropped, not reported as a line that does not parse"
    block = (tmp_path / "learnings.md").read_text(encoding="utf-8")
    assert "Learning number " in block
