"""queries/ sits below learnings/ and corrections/: it imports nothing of them, anywhere in a module.

Read from the modules' syntax trees, so an import hidden inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

QUERIES = Path(__file__).resolve().parents[2] / "queries"
ABOVE = ("corrections", "learnings")


def imported(path: Path) -> set[str]:
    """Every module name a file imports, at any depth."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(QUERIES.glob("*.py")), ids=lambda path: path.name)
def test_queries_imports_nothing_above_it(path: Path) -> None:
    upward = sorted(name for name in imported(path) if name.split(".")[0] in ABOVE)
    assert upward == []
