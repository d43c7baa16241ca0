"""docs/security.md names, for each rule, the test that holds it: every test file and test it names
exists (a `::name` after a file is that file's), so a renamed or removed test cannot leave a rule
pointing at nothing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A code span naming a test file (with or without a test), or a test of the file named last.
_NAMED = re.compile(r"`(tests/[\w/]+\.py)?(::[\w]+)?(\[[^`\]]*\])?`")


def _named_tests(text: str) -> list[tuple[str, str | None]]:
    named: list[tuple[str, str | None]] = []
    last: str | None = None
    for match in _NAMED.finditer(text):
        path, test = match.group(1), match.group(2)
        if path is None and test is None:
            continue
        if path is not None:
            last = path
        assert last is not None, f"{match.group(0)} names a test before any test file"
        named.append((last, test[2:] if test else None))
    return named


def _tests_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_test_the_security_page_names_exists() -> None:
    named = _named_tests((ROOT / "docs" / "security.md").read_text(encoding="utf-8"))
    assert len(named) > 100  # the page's tables, not a page without them
    missing = []
    for path, test in named:
        if not (ROOT / path).is_file():
            missing.append(path)
        elif test is not None and test not in _tests_of(ROOT / path):
            missing.append(f"{path}::{test}")
    assert not missing, f"docs/security.md names what does not exist: {sorted(set(missing))}"


def test_the_check_finds_a_test_that_is_not_there() -> None:
    named = _named_tests(
        "`tests/test_security_doc.py::test_gone`, `::test_every_test_the_security_page_names_exists`"
    )
    assert named == [
        ("tests/test_security_doc.py", "test_gone"),
        ("tests/test_security_doc.py", "test_every_test_the_security_page_names_exists"),
    ]
    assert "test_gone" not in _tests_of(ROOT / "tests" / "test_security_doc.py")
