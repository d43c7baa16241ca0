"""Every document of the product is valid against GitHub's published schema, as written and batched."""

from __future__ import annotations

import itertools

import pytest
from graphql import GraphQLSchema, OperationDefinitionNode, validate

from emulator.schema import load_schema
from queries.documents import DIRECTORY, expand, operation, operation_names


@pytest.fixture(scope="module")
def schema() -> GraphQLSchema:
    return load_schema()


def test_every_graphql_file_is_loaded_and_named_like_its_file() -> None:
    names = {path.stem for path in DIRECTORY.glob("*.graphql")}
    assert {"CorrectionWindow", "CorrectionDetails"} <= set(operation_names()) <= names


@pytest.mark.parametrize("name", operation_names())
def test_operation_is_valid_against_githubs_schema(schema: GraphQLSchema, name: str) -> None:
    assert validate(schema, operation(name).document) == []


@pytest.mark.parametrize(
    ("analyses", "permissions", "timelines", "reactions"),
    list(itertools.product([0, 1], [0, 1, 3], [0, 2], [0, 2])),
)
def test_batched_details_are_valid(
    schema: GraphQLSchema, analyses: int, permissions: int, timelines: int, reactions: int
) -> None:
    if not (analyses or permissions or timelines or reactions):
        pytest.skip("an empty round is never sent")
    counts = {
        "analyses": analyses,
        "permission": permissions,
        "timeline": timelines,
        "moreReactions": reactions,
    }
    op = expand(operation("CorrectionDetails"), counts)
    assert validate(schema, op.document) == []
    text = op.text
    assert text.count("collaborators(login: $login_") == permissions
    assert "query:" not in text  # collaborators(query:) is a fuzzy match: never used
    definition = op.document.definitions[0]
    assert isinstance(definition, OperationDefinitionNode)
    assert definition.name is not None and definition.name.value == "CorrectionDetails"


def test_duplicate_state_reason_is_asked_for(schema: GraphQLSchema) -> None:
    assert "stateReason(enableDuplicate: true)" in operation("CorrectionWindow").text


def test_expand_refuses_an_unknown_alias() -> None:
    with pytest.raises(KeyError):
        expand(operation("CorrectionDetails"), {"nothing": 1})


def _item_types(definition_text: str) -> list[str]:
    start = definition_text.index("itemTypes: [") + len("itemTypes: [")
    return definition_text[start : definition_text.index("]", start)].split()


def test_later_timeline_pages_ask_for_the_same_item_types_as_the_first() -> None:
    first = (DIRECTORY / "IssueFirstPage.graphql").read_text(encoding="utf-8")
    later = (DIRECTORY / "CorrectionDetails.graphql").read_text(encoding="utf-8")
    assert _item_types(first) == _item_types(later)
    assert "ISSUE_COMMENT" in _item_types(first)
