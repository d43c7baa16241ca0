"""No document reads `databaseId` where GitHub offers `fullDatabaseId`.

Comment ids passed 2^31 long ago: GitHub answers `databaseId` (a 32-bit Int) with null and the
error "Int cannot represent non 32-bit signed integer value", and a reader that keys on it drops
those comments silently. The documents are walked against GitHub's schema (not grepped), so an
alias, a fragment or an inline fragment on an interface cannot hide the field.
"""

from __future__ import annotations

import pytest
from graphql import (
    DocumentNode,
    FieldNode,
    GraphQLInterfaceType,
    GraphQLObjectType,
    GraphQLSchema,
    TypeInfo,
    TypeInfoVisitor,
    Visitor,
    get_named_type,
    parse,
    visit,
)

from emulator.schema import load_schema
from queries.documents import expand, operation, operation_names


@pytest.fixture(scope="module")
def schema() -> GraphQLSchema:
    return load_schema()


def overflowing_id_fields(schema: GraphQLSchema, document: DocumentNode) -> list[str]:
    """`Type.databaseId` selections on types that also have `fullDatabaseId` (comments, issues...)."""
    info = TypeInfo(schema)
    found: list[str] = []

    class Find(Visitor):
        def enter_field(self, node: FieldNode, *_: object) -> None:
            parent = info.get_parent_type()
            if node.name.value != "databaseId" or parent is None:
                return
            named = get_named_type(parent)
            if (
                isinstance(named, GraphQLObjectType | GraphQLInterfaceType)
                and "fullDatabaseId" in named.fields
            ):
                found.append(f"{named.name}.databaseId")

    visit(document, TypeInfoVisitor(info, Find()))
    return found


@pytest.mark.parametrize("name", operation_names())
def test_no_operation_selects_databaseId_on_a_comment(schema: GraphQLSchema, name: str) -> None:
    assert overflowing_id_fields(schema, operation(name).document) == []


def test_batched_details_select_no_databaseId(schema: GraphQLSchema) -> None:
    counts = {"analyses": 1, "permission": 2, "timeline": 2, "moreReactions": 2, "pathCheck": 1}
    assert overflowing_id_fields(schema, expand(operation("CorrectionDetails"), counts).document) == []


@pytest.mark.parametrize(
    "text",
    [
        'query { node(id: "x") { ... on IssueComment { databaseId } } }',
        'query { node(id: "x") { ... on Comment { ... on IssueComment { n: databaseId } } } }',
        'fragment F on IssueComment { databaseId } query { node(id: "x") { ...F } }',
        'query { repository(owner: "o", name: "n") { issue(number: 1) { databaseId } } }',
    ],
)
def test_the_walk_finds_databaseId_however_it_is_spelt(schema: GraphQLSchema, text: str) -> None:
    assert overflowing_id_fields(schema, parse(text)) != []


def test_the_walk_leaves_fullDatabaseId_alone(schema: GraphQLSchema) -> None:
    text = 'query { node(id: "x") { ... on IssueComment { fullDatabaseId } } }'
    assert overflowing_id_fields(schema, parse(text)) == []
