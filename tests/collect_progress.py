"""Progress while pytest collects, which it does silently: a line at once, then one every few
seconds, so a run on a loaded machine shows from its first second what it is doing.

Collecting is most of a quiet start: each of the ~150 test modules is compiled and its asserts
rewritten (every run when PYTHONDONTWRITEBYTECODE is set, as pytest then caches nothing), and the
product it imports is loaded. Loaded as a plugin by tests/conftest.py; writes through pytest's own
terminal writer, so `-q` runs and CI logs both show it.

Under pytest-xdist (`scripts/test` runs two workers per core) each worker collects on its own and the workers'
output is not shown: `WorkersProgress` says so from the controller instead, a line at once, one
every few seconds from a timer thread (the controller only waits on the workers then), and the
count when every worker has collected.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest

EVERY = 5.0  # seconds between two progress lines


class CollectProgress:
    """Counts the collected modules; says so every EVERY seconds."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._started = time.monotonic()
        self._said = self._started
        self._modules = 0

    def _write(self, line: str) -> None:
        reporter = self._config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(line)

    @pytest.hookimpl
    def pytest_collection(self, session: pytest.Session) -> None:
        self._write("collecting the tests (each module compiled and its asserts rewritten) ...")

    @pytest.hookimpl
    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.nodeid.endswith(".py"):
            self._modules += 1
        now = time.monotonic()
        if now - self._said >= EVERY:
            self._said = now
            self._write(f"collecting: {self._modules} modules read ({now - self._started:.0f} s)")

    @pytest.hookimpl
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        elapsed = time.monotonic() - self._started
        self._write(f"collected {len(session.items)} tests from {self._modules} modules in {elapsed:.0f} s")


class WorkersProgress:
    """The controller's side of a pytest-xdist run: the workers collect; says so meanwhile."""

    def __init__(self, config: pytest.Config) -> None:
        self._config = config
        self._started = time.monotonic()
        self._workers = 0
        self._collected: set[str] = set()
        self._done = threading.Event()

    def _write(self, line: str) -> None:
        reporter = self._config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(line)

    def _tick(self) -> None:
        while not self._done.wait(EVERY):
            elapsed = time.monotonic() - self._started
            self._write(
                f"collecting: {len(self._collected)} of {self._workers} workers done ({elapsed:.0f} s)"
            )

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_setupnodes(self, config: pytest.Config, specs: Sequence[Any]) -> None:
        self._workers = len(specs)
        self._write(
            f"collecting the tests in {self._workers} workers (each module compiled and its asserts rewritten) ..."
        )
        threading.Thread(target=self._tick, name="collect-progress", daemon=True).start()

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: Sequence[str]) -> None:
        self._collected.add(str(node.gateway.id))
        if len(self._collected) >= self._workers and not self._done.is_set():
            self._done.set()
            elapsed = time.monotonic() - self._started
            self._write(f"collected {len(ids)} tests in {self._workers} workers in {elapsed:.0f} s")

    @pytest.hookimpl
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self._done.set()
