"""Shared fixtures: the emulator factory (tests/emulation.py) and the Markdown snapshot extension.

The emulator (and aiohttp and gql under it) is imported inside the fixtures that start one, so a
run of tests that need no server never pays for it.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.location import PyTestLocation

if TYPE_CHECKING:
    from emulator import Server
    from tests.emulation import Emulators

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """Progress while the tests are collected (tests/collect_progress.py): by this process, or
    under pytest-xdist (`-n`) by the controller while its workers collect."""
    from tests.collect_progress import CollectProgress, WorkersProgress

    if hasattr(config, "workerinput"):
        return  # an xdist worker: its output is not shown; the controller says it
    if getattr(config.option, "dist", "no") != "no" and not config.getoption("collectonly"):
        config.pluginmanager.register(WorkersProgress(config), "collect-progress")
    else:
        config.pluginmanager.register(CollectProgress(config), "collect-progress")


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


@pytest.fixture
def emulate() -> Iterator[Emulators]:
    """Start emulators for one test: ``emulate(world, **keys)``; all stop when the test ends."""
    from tests.emulation import Emulators

    with Emulators() as emulators:
        yield emulators


@pytest.fixture(scope="module")
def emulate_module() -> Iterator[Emulators]:
    """Start emulators shared by one module's tests; all stop when the module ends."""
    from tests.emulation import Emulators

    with Emulators() as emulators:
        yield emulators


@pytest.fixture(scope="module")
def demo_server(emulate_module: Emulators) -> Server:
    """The demo world, shared by one module's tests (a test that sets faults clears them)."""
    return emulate_module()


@pytest.fixture(scope="session")
def closed_port_url() -> str:
    """A loopback GraphQL URL where nothing listens (connection refused: GitHub unreachable)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/graphql"


@pytest.fixture
def retry_pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits GitHub's client takes between retries (queries/client.py), passed at once and
    kept in order: for tests that check what a run ends with, not how long it waited. The fault
    matrix (tests/reliability/test_fault_matrix.py) and the retry policy's tests keep real time."""
    import asyncio

    from queries.client import GitHubClient

    waits: list[float] = []

    async def pause(seconds: float) -> None:
        waits.append(seconds)
        await asyncio.sleep(0)

    defaults = GitHubClient.__init__.__kwdefaults__
    assert defaults is not None and "sleep" in defaults, "GitHubClient takes its pause as `sleep=`"
    monkeypatch.setitem(defaults, "sleep", pause)
    return waits
