"""corrections/ keeps its layout: imports point one way, modules stay small, the pure modules stay pure.

Read from the source with `ast`, so an import inside a function counts as much as one at the top
of a module (a lazy import that dodges a cycle is still a cycle), and so does one under
`TYPE_CHECKING`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PRODUCT = ("assistant", "commandline", "queries", "learnings", "corrections", "emulator")
MAX_LINES = 450
# The modules that talk to GitHub, or run the commands that do: only they may import the network
# stack. Every other corrections module is pure (models in, models or text out).
READERS = frozenset(
    {
        "corrections.__main__",
        "corrections.action",
        "corrections.base_files",
        "corrections.cli",
        "corrections.demo",
        "corrections.explain_job",
        "corrections.job",
        "corrections.read",
        "corrections.reports",
    }
)
NETWORK = ("aiohttp", "gql", "graphql", "queries.client", "queries.fetch", "queries.trail")


def _modules(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PRODUCT:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(tree: ast.AST) -> Iterator[str]:
    """Every name an import statement anywhere in the module brings in, as dotted paths."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> what it imports: product modules by name, anything else by its top-level package."""
    modules = _modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for dotted in _imported(ast.parse(path.read_text(encoding="utf-8"))):
            parts = dotted.split(".")
            known = [".".join(parts[:i]) for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in modules]
            target = known[0] if known else parts[0]
            if target != name:
                targets.add(target)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]], package: str) -> list[list[str]]:
    """The strongly connected components of more than one module inside `package` (Tarjan)."""
    inside = {name: {t for t in targets if t.split(".")[0] == package} for name, targets in graph.items()}
    inside = {name: targets for name, targets in inside.items() if name.split(".")[0] == package}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for target in inside.get(name, set()):
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == name:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(inside):
        if name not in index:
            visit(name)
    return found


def reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    """Everything `start` imports, directly or through other product modules."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for target in graph.get(todo.pop(), set()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


GRAPH = import_graph(ROOT)
CORRECTIONS = sorted(name for name in GRAPH if name.split(".")[0] == "corrections")


def test_no_import_cycle_in_corrections_not_even_inside_functions() -> None:
    assert cycles(GRAPH, "corrections") == []


def test_the_commands_are_imported_by_nothing_but_the_entry_point() -> None:
    """cli, action, reports and demo are ends: the core they share lives below them."""
    commands = {"corrections.cli", "corrections.action", "corrections.reports", "corrections.demo"}
    importers = {
        name: sorted(GRAPH[name] & commands)
        for name in GRAPH
        if GRAPH[name] & commands and name not in {"corrections.cli", "corrections.__main__"}
    }
    assert importers == {}


@pytest.mark.parametrize("module", CORRECTIONS)
def test_modules_stay_small(module: str) -> None:
    path = _modules(ROOT)[module]
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines < MAX_LINES, f"{path.relative_to(ROOT)}: {lines} lines"


@pytest.mark.parametrize("module", [name for name in CORRECTIONS if name not in READERS])
def test_pure_modules_do_not_import_the_network_stack(module: str) -> None:
    reached = reaches(GRAPH, module)
    assert not reached & set(NETWORK), f"{module} reaches {sorted(reached & set(NETWORK))}"


def test_the_checks_see_a_cycle_and_a_network_import(tmp_path: Path) -> None:
    """The graph counts imports inside functions and names what a module reaches through another."""
    package = tmp_path / "corrections"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("import corrections.b\n")
    (package / "b.py").write_text("def late() -> None:\n    from corrections import a\n")
    (package / "c.py").write_text("from corrections.d import X\n")
    (package / "d.py").write_text("X = 1\n\ndef late() -> None:\n    import aiohttp\n")
    graph = import_graph(tmp_path)
    assert cycles(graph, "corrections") == [["corrections.a", "corrections.b"]]
    assert "aiohttp" in reaches(graph, "corrections.c")
