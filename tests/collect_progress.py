"""Progress while pytest collects, which it does silently: a line at once, then one every few
seconds, so a run on a loaded machine shows from its first second what it is doing.

Collecting is most of a quiet start: each of the ~150 test modules is compiled and its asserts
rewritten (every run when PYTHONDONTWRITEBYTECODE is set, as pytest then caches nothing), and the
product it imports is loaded. Loaded as a plugin by tests/conftest.py; writes through pytest's own
terminal writer, so `-q` runs and CI logs both show it.
"""

from __future__ import annotations

import time

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
