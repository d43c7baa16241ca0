"""docs/snapshots.md names every folder of snapshots/, each with the test module that owns it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_ROW = re.compile(r"^\| `(?P<folder>[^`/]+)/` \| `(?P<test>tests/[^`]+\.py)` \|")


def documented() -> dict[str, str]:
    """Folder -> test module, from the table of docs/snapshots.md."""
    text = (ROOT / "docs" / "snapshots.md").read_text(encoding="utf-8")
    rows = [_ROW.match(line) for line in text.splitlines()]
    return {row.group("folder"): row.group("test") for row in rows if row}


def test_every_snapshot_folder_is_documented_and_no_other() -> None:
    folders = {path.name for path in (ROOT / "snapshots").iterdir() if path.is_dir()}
    assert sorted(documented()) == sorted(folders)


def test_each_documented_folder_names_the_module_that_writes_it() -> None:
    for folder, test in documented().items():
        module = ROOT / test
        assert module.is_file(), f"docs/snapshots.md: {test} is not a file"
        assert module.stem == folder, f"docs/snapshots.md: snapshots/{folder}/ is written by {module.stem}.py"
        assert "snapshot: SnapshotAssertion" in module.read_text(encoding="utf-8")
