"""The snapshot extension keeps one Markdown file per snapshot under the top-level snapshots/ folder."""

from pathlib import Path

from syrupy.assertion import SnapshotAssertion

ROOT = Path(__file__).resolve().parent.parent


def test_snapshot_file_lives_under_top_level_folder(snapshot: SnapshotAssertion) -> None:
    text = "# a heading\n\nsome `markdown`\n"
    assert text == snapshot
    name = "test_snapshot_file_lives_under_top_level_folder.md"
    stored = ROOT / "snapshots" / "test_snapshot_layout" / name
    assert stored.read_text(encoding="utf-8") == text
