"""Shared fixtures: the Markdown snapshot extension that keeps every snapshot under snapshots/."""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.location import PyTestLocation

ROOT = Path(__file__).resolve().parent.parent


class MarkdownSnapshotExtension(SingleFileSnapshotExtension):
    """One Markdown file per snapshot, in snapshots/<test module>/, reviewed as a plain diff."""

    file_extension = "md"
    _write_mode = WriteMode.TEXT

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(ROOT / "snapshots" / test_location.basename)


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """Rendered text compared with snapshots/<module>/<test>.md (update with --snapshot-update)."""
    return snapshot.use_extension(MarkdownSnapshotExtension)
