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


def test_test_modules_that_take_snapshots_have_distinct_names() -> None:
    """A module's snapshots live in snapshots/<module name>/, whatever folder of tests/ holds it:
    two modules of one name would share that folder and each see the other's snapshots as unused."""
    names = [
        path.stem
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if "snapshot: SnapshotAssertion" in path.read_text(encoding="utf-8")
    ]
    assert sorted({name for name in names if names.count(name) > 1}) == []
