"""The learnings package's layout: imports point down (never into corrections/), no cycle, small modules.

Imports are read from the source with `ast`, those inside functions too (the lazy ones that keep
`learnings --help` free of the network stack), so a cycle hidden in a function is found.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "learnings"
MAX_LINES = 450


def _modules() -> dict[str, Path]:
    return {
        "learnings." + path.relative_to(PACKAGE).with_suffix("").as_posix().replace("/", "."): path
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _imported(path: Path) -> Iterator[str]:
    """Every module named by an import statement of the file, wherever the statement is."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {found for found in _imported(path) if found in modules} - {name}
        for name, path in modules.items()
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph, as the modules along it, or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        for imported in sorted(graph[name]):
            found = visit(imported, [*path, name])
            if found is not None:
                return found
        done.add(name)
        return None

    for name in sorted(graph):
        found = visit(name, [])
        if found is not None:
            return found
    return None


def test_no_import_cycle_inside_learnings() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_check_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    """The check above can fail: a lazy import back up is a cycle."""
    graph = _graph()
    graph["learnings.edit"] = {*graph["learnings.edit"], "learnings.cli"}
    assert _cycle(graph) is not None
    source = tmp_path / "lazy.py"
    source.write_text("def run() -> None:\n    from learnings.cli import main\n", encoding="utf-8")
    assert "learnings.cli" in set(_imported(source))


@pytest.mark.parametrize("name", sorted(_modules()))
def test_learnings_imports_nothing_of_corrections(name: str) -> None:
    upward = sorted(found for found in _imported(_modules()[name]) if found.split(".")[0] == "corrections")
    assert not upward, f"{name} imports {upward}"


@pytest.mark.parametrize("name", sorted(_modules()))
def test_every_module_is_small(name: str) -> None:
    lines = len(_modules()[name].read_text(encoding="utf-8").splitlines())
    assert lines < MAX_LINES, f"{name}: {lines} lines"
