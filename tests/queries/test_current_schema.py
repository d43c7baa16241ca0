"""Every document of the product is valid against GitHub's current schema too, and uses nothing
deprecated that has a replacement.

GitHub's current schema is npm's @octokit/graphql-schema 15.26.1 (February 2025, still npm's newest)
with our overlay `emulator/schema_overlay.graphql`, each line of which cites GitHub's schema as
api.github.com served it on 2026-07-24 (octokit/graphql-schema, branch `schema-update`, commit
c7aba2195c53e68b21bab414dfd2cff5d7eeaef2). GitHub's deprecation reasons name their replacement
("Use `fullDatabaseId` instead", "in favor of", "replaced by"): such a use fails here, in both
schemas. A deprecation without one is allowed only when listed below with why.
"""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from graphql import (
    DocumentNode,
    EnumTypeDefinitionNode,
    GraphQLSchema,
    NamedTypeNode,
    ObjectTypeDefinitionNode,
    parse,
    validate,
)

from emulator.schema import (
    OVERLAY,
    OVERLAY_PIN,
    load_current_schema,
    load_schema,
    npm_refusals,
    overlaid,
    overlay_additions,
    uses,
)
from queries.documents import expand, operation, operation_names

COMMIT = "c7aba2195c53e68b21bab414dfd2cff5d7eeaef2"

# A deprecation reason that names what to use instead.
REPLACED = re.compile(r"\b[Uu]se\b.*\binstead\b|\bin favou?r of\b|\breplaced by\b")

# Deprecated without a replacement, and why the product still reads it. GitHub's schema puts the
# deprecation of the argument `enableDuplicate` on the whole field (schema.graphql L4954, L20266
# at the commit above): the field stays, the argument goes, and no document sends it.
ALLOWED = {  # the field, and the argument that goes (never sent)
    "Issue.stateReason": "enableDuplicate",
    "ClosedEvent.stateReason": "enableDuplicate",
}

BATCH = {"analyses": 2, "permission": 2, "timeline": 2, "moreReactions": 2}


@pytest.fixture(scope="module")
def current() -> GraphQLSchema:
    return load_current_schema()


def _documents() -> list[tuple[str, DocumentNode]]:
    found = [(name, operation(name).document) for name in operation_names()]
    return [*found, ("CorrectionDetails batched", expand(operation("CorrectionDetails"), BATCH).document)]


@pytest.mark.parametrize("name", operation_names())
def test_operation_is_valid_against_githubs_current_schema(current: GraphQLSchema, name: str) -> None:
    assert validate(current, operation(name).document) == []


def test_a_batched_details_query_is_valid_against_the_current_schema(current: GraphQLSchema) -> None:
    assert validate(current, expand(operation("CorrectionDetails"), BATCH).document) == []


@pytest.mark.parametrize("which", ["npm", "current"])
def test_nothing_deprecated_with_a_replacement_is_used(which: str) -> None:
    schema = load_schema() if which == "npm" else load_current_schema()
    deprecated: dict[str, str] = {}
    for name, document in _documents():
        for use, reason in uses(schema, document).items():
            if reason is not None:
                deprecated[f"{name}: {use}"] = reason
    replaced = {use: reason for use, reason in deprecated.items() if REPLACED.search(reason)}
    assert replaced == {}
    unlisted = {use for use in deprecated if use.split(": ", 1)[1] not in ALLOWED}
    assert unlisted == set()
    going = {f"{field}({argument}:)" for field, argument in ALLOWED.items()}
    sent = {
        f"{name}: {use}" for name, document in _documents() for use in uses(schema, document) if use in going
    }
    assert sent == set()


def test_the_replacement_pattern_reads_githubs_reasons() -> None:
    """The words of GitHub's deprecations (schema.graphql at the commit above)."""
    assert REPLACED.search(
        "`databaseId` will be removed because it does not support 64-bit signed integer "
        "identifiers. Use `fullDatabaseId` instead. Removal on 2024-07-01 UTC."
    )
    assert REPLACED.search("`x` will be removed. `x` will be replaced by `y`. Removal on 2024-07-01 UTC.")
    assert not REPLACED.search(
        "The state reason for duplicate issue is now returned by default. Removal on 2025-10-01 UTC."
    )


def test_the_walk_sees_a_deprecated_argument_and_field() -> None:
    schema = load_current_schema()
    document = parse(
        'query { repository(owner: "o", name: "n") { issue(number: 1) { stateReason(enableDuplicate: true) } } '
        'node(id: "x") { ... on ProjectV2 { databaseId } } }'
    )
    found = uses(schema, document)
    assert found["Issue.stateReason"] is not None
    assert "Issue.stateReason(enableDuplicate:)" in found
    assert REPLACED.search(found["ProjectV2.databaseId"] or "")


def test_the_npm_schema_refuses_only_what_the_overlay_adds() -> None:
    """Where the npm release is older than GitHub, a document may use what the overlay adds,
    nothing else that it lacks."""
    assert ("ClosedEvent", "duplicateOf") in overlay_additions()
    assert npm_refusals(parse("{ viewer { login } }")) == []
    unknown = parse(
        '{ repository(owner: "o", name: "n") { issue(number: 1) { duplicateOf { number } nope } } }'
    )
    assert npm_refusals(unknown) == ["Cannot query field 'nope' on type 'Issue'."]
    for name, document in _documents():
        assert npm_refusals(document) == [], name


def test_every_overlay_line_cites_the_pinned_commit() -> None:
    lines = OVERLAY.read_text(encoding="utf-8").splitlines()
    pin = tomllib.loads(OVERLAY_PIN.read_text(encoding="utf-8"))
    assert pin["commit"] == COMMIT and re.fullmatch(r"[0-9a-f]{64}", pin["sha256"])
    assert f"commit {COMMIT}" in OVERLAY.read_text(encoding="utf-8")
    for number, line in enumerate(lines):
        if line.startswith("  ") and not line.lstrip().startswith("#"):
            assert re.fullmatch(r"  # @c7aba21:L\d+(-L\d+)?.*", lines[number - 1]), (number + 1, line)


def test_an_overlay_field_replaces_the_field_of_its_name_or_is_added() -> None:
    base = parse("type A { x: Int y: Int } enum E { P } union U = A type Query { a: A }")
    overlay = parse('type A { y: String @deprecated(reason: "r") z: Int } enum E { Q } type B { w: Int }')
    merged = overlaid(base, overlay)
    a = merged.definitions[0]
    assert isinstance(a, ObjectTypeDefinitionNode) and a.name.value == "A"
    assert [
        (f.name.value, f.type.name.value) for f in a.fields or () if isinstance(f.type, NamedTypeNode)
    ] == [
        ("x", "Int"),
        ("y", "String"),
        ("z", "Int"),
    ]
    values = merged.definitions[1]
    assert isinstance(values, EnumTypeDefinitionNode)
    assert [value.name.value for value in values.values or ()] == ["P", "Q"]
    names = [d.name.value for d in merged.definitions]  # type: ignore[attr-defined]
    assert names == ["A", "E", "U", "Query", "B"]


def _checker() -> ModuleType:
    script = Path(__file__).resolve().parents[2] / "scripts" / "check_schema_overlay.py"
    spec = importlib.util.spec_from_file_location("check_schema_overlay", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_overlay_check_finds_what_a_file_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Given npm's own file as "the real one", the check finds every overlay line and each read
    that differs, and says the file is not the pinned one. (Run against the pinned file itself, it
    found 0 differences: docs/emulator.md.)"""
    checker = _checker()
    found = checker.differences(load_schema())
    assert "overlay ClosedEvent.duplicateOf: not in the real file" in found
    assert "overlay Issue.duplicateOf: not in the real file" in found
    assert any(line.startswith("overlay Issue.stateReason: ") for line in found)
    older = tmp_path / "schema.graphql"
    older.write_text("type Query { viewer: Int }\n", encoding="utf-8")
    assert checker.main([str(older)]) == 1
    out = capsys.readouterr().out
    assert "NOT the pinned file" in out and "refused by the real file" in out
