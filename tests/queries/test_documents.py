"""Every document of the product is valid against GitHub's published schema, as written and batched."""

from __future__ import annotations

import itertools
from typing import get_args

import pytest
from graphql import (
    ArgumentNode,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    VariableNode,
    Visitor,
    parse,
    validate,
    visit,
)
from graphql.execution.values import get_variable_values

from emulator.schema import load_schema
from queries.documents import DIRECTORY, expand, operation, operation_names, timeline_item_types
from queries.models import TimelineNode


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


@pytest.mark.parametrize("name", operation_names())
def test_no_operation_sends_enable_duplicate(name: str) -> None:
    """GitHub's changelog of 2025-07-15: "`enableDuplicate` will be removed" (effective 2025-10-01),
    "the state reason for duplicate issue is now returned by default"; the current schema
    (octokit/graphql-schema c7aba2195c53e68b21bab414dfd2cff5d7eeaef2) marks it deprecated."""
    assert "enableDuplicate" not in operation(name).text


def test_the_issue_state_reason_is_read(schema: GraphQLSchema) -> None:
    assert "  stateReason\n" in operation("CorrectionWindow").text


def test_expand_refuses_an_unknown_alias() -> None:
    with pytest.raises(KeyError):
        expand(operation("CorrectionDetails"), {"nothing": 1})


def test_the_timeline_item_types_are_written_once() -> None:
    """No document lists item types: each `itemTypes:` is the one fixed variable, whose value is
    the types TimelinePage selects."""
    found: list[object] = []

    class ItemTypes(Visitor):
        def enter_argument(self, node: ArgumentNode, *_: object) -> None:
            if node.name.value == "itemTypes":
                found.append(node.value)

    for path in sorted(DIRECTORY.glob("*.graphql")):
        visit(parse(path.read_text(encoding="utf-8")), ItemTypes())
    assert found, "the timeline is read"
    assert all(isinstance(value, VariableNode) and value.name.value == "timelineItemTypes" for value in found)


def test_the_item_types_are_the_selection_and_the_answer_models() -> None:
    """What is asked, what is selected and what the models parse are the same types."""
    union = get_args(get_args(TimelineNode)[0])
    typenames = [get_args(model.model_fields["typename"].annotation)[0] for model in union]
    page = parse((DIRECTORY / "TimelinePage.graphql").read_text(encoding="utf-8"))
    selected = {
        node.type_condition.name.value
        for node in page.definitions[0].selection_set.selections[-1].selection_set.selections  # type: ignore[attr-defined]
        if isinstance(node, InlineFragmentNode) and node.type_condition is not None
    }
    assert set(typenames) == selected
    assert "ISSUE_COMMENT" in timeline_item_types() and "LABELED_EVENT" in timeline_item_types()
    assert len(timeline_item_types()) == len(selected)


@pytest.mark.parametrize("name", ["CorrectionWindow", "IssueTrail", "CorrectionDetails"])
def test_every_timeline_read_sends_item_types_githubs_schema_takes(schema: GraphQLSchema, name: str) -> None:
    op = expand(operation(name), {"timeline": 2}) if name == "CorrectionDetails" else operation(name)
    fixed = op.fixed_variables
    assert fixed == {"timelineItemTypes": list(timeline_item_types())}
    definition = op.document.definitions[0]
    assert isinstance(definition, OperationDefinitionNode)
    [declared] = [
        v for v in definition.variable_definitions or () if v.variable.name.value == "timelineItemTypes"
    ]
    coerced = get_variable_values(schema, [declared], fixed)
    assert not isinstance(coerced, list), coerced  # a list is graphql-core's errors
    assert coerced.coerced == fixed


def test_a_batch_without_timelines_sends_no_item_types() -> None:
    assert expand(operation("CorrectionDetails"), {"timeline": 0}).fixed_variables == {}
