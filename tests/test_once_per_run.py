"""tests/once_per_run.py: a costly fixture's value computed by one xdist worker, read by the others."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.once_per_run import once_per_run


class Factory:
    """What once_per_run asks of pytest's TempPathFactory: the worker's base folder."""

    def __init__(self, base: Path) -> None:
        self.base = base

    def getbasetemp(self) -> Path:
        return self.base


def workers(root: Path, count: int) -> list[Any]:
    """`count` workers' factories, each its own base folder under one run's folder, as xdist's."""
    run = root / "pytest-of-someone" / "pytest-7"
    factories = []
    for n in range(count):
        (run / f"popen-gw{n}").mkdir(parents=True)
        factories.append(Factory(run / f"popen-gw{n}"))
    return factories


def test_workers_asking_at_once_compute_once_and_read_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    calls: list[int] = []

    def compute() -> dict[str, Any]:
        calls.append(1)
        time.sleep(0.2)  # long enough for every other worker to be waiting on the lock
        return {"steps": [("read", 0), ("sync", 1)]}

    values: list[Any] = []
    threads = [
        threading.Thread(target=lambda f=factory: values.append(once_per_run(f, "scenario", compute)))
        for factory in workers(tmp_path, 4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1
    assert values == [{"steps": [["read", 0], ["sync", 1]]}] * 4  # as JSON gives it, in each worker


def test_a_failed_computation_leaves_nothing_and_the_next_worker_computes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    first, second = workers(tmp_path, 2)

    def failing() -> Any:
        raise RuntimeError("the emulator did not start")

    with pytest.raises(RuntimeError, match="did not start"):
        once_per_run(first, "scenario", failing)
    assert once_per_run(second, "scenario", lambda: [1, 2]) == [1, 2]
    assert once_per_run(first, "scenario", failing) == [1, 2]  # read, not computed again


def test_without_xdist_it_is_computed_in_place_each_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    (only,) = workers(tmp_path, 1)
    calls: list[int] = []

    def compute() -> tuple[int, ...]:
        calls.append(1)
        return (1, 2)

    assert once_per_run(only, "scenario", compute) == [1, 2]
    assert once_per_run(only, "scenario", compute) == [1, 2]
    assert len(calls) == 2
    assert not any(path.suffix == ".json" for path in tmp_path.rglob("*"))
