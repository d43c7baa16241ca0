"""The tests' own layout: tests/ mirrors the packages, and the kit the tests and the bench share
stands below both.

tests/kit/ holds what the tests need of their own and the bench reuses: the runner stand-in
(action.yml replayed as GitHub's runner runs it) and the world kit (the world format spelled
once). The kit imports nothing of bench/, so bench/ may import it; a test outside tests/bench/
imports of bench/ only the worlds the bench measures (a test and a figure then speak of the same
repository), never a tool of its own.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tests.test_layout import STAGED, import_graph, modules

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
# `bench` itself is its package's __init__, which every import of a bench module runs.
BENCH_WORLDS = frozenset(
    {
        "bench",
        "bench.worlds",
        "bench.topic_world",
        "bench.loop_world",
        "bench.busy_month",
        "bench.labelled_world",
    }
)


@functools.cache
def graph_of_the_tests() -> dict[str, set[str]]:
    """The import graph of tests/ and bench/, built when a test first asks for it (not while the
    tests are collected in each worker)."""
    return import_graph(modules(ROOT, ("tests", "bench")))


@pytest.mark.parametrize("package", sorted(STAGED))
def test_the_tests_of_a_staged_package_are_in_its_stage_folders(package: str) -> None:
    found = sorted((TESTS / package).rglob("test_*.py"))
    loose = [
        p.relative_to(ROOT).as_posix()
        for p in found
        if p.parent.relative_to(TESTS / package).as_posix() not in STAGED[package]
    ]
    assert found and loose == []


def test_assistant_has_its_tests_folder() -> None:
    assert sorted(p.name for p in (TESTS / "assistant").glob("test_*.py"))


def test_the_kit_imports_no_bench_and_no_test() -> None:
    kit = {name: targets for name, targets in graph_of_the_tests().items() if name.startswith("tests.kit.")}
    upward = {
        name: sorted(
            t
            for t in targets
            if t.split(".")[0] == "bench" or (t.startswith("tests.") and not t.startswith("tests.kit."))
        )
        for name, targets in kit.items()
    }
    assert kit and {name: found for name, found in upward.items() if found} == {}


def test_tests_outside_tests_bench_import_only_the_bench_worlds() -> None:
    tools = {
        name: sorted(t for t in targets if t.split(".")[0] == "bench" and t not in BENCH_WORLDS)
        for name, targets in graph_of_the_tests().items()
        if name.startswith("tests.") and not name.startswith("tests.bench.")
    }
    assert {name: found for name, found in tools.items() if found} == {}
