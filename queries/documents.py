"""The hand-written GraphQL documents: each parsed when first sent, one named operation per file.

(The first request of a read is sent as text, before graphql-core loads: queries/document_text.py,
which also holds the fixed variables' values.)

Fragments live in files of their own and are attached to each operation that uses them.
A few variables have values the project fixes (`FIXED_VARIABLES`): an operation that declares one
sends it (`Operation.fixed_variables`, merged in by the client). `expand` repeats an aliased field once per item (numbered alias and variables), so one
hand-written selection serves a batch of look-ups in a single request.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    NameNode,
    Node,
    OperationDefinitionNode,
    SelectionNode,
    SelectionSetNode,
    VariableDefinitionNode,
    VariableNode,
    parse,
    print_ast,
    visit,
)
from graphql.language import Visitor

from queries.document_text import FIXED_VARIABLES, timeline_item_types

DIRECTORY = Path(__file__).resolve().parent
__all__ = ["DIRECTORY", "Operation", "expand", "operation", "operation_names", "timeline_item_types"]


@dataclass(frozen=True)
class Operation:
    """A named operation with the fragments it needs, ready to send."""

    name: str
    document: DocumentNode

    @property
    def text(self) -> str:
        """The document as sent over the wire."""
        return print_ast(self.document)

    @property
    def fixed_variables(self) -> dict[str, object]:
        """The values of the fixed variables this operation declares (sent with every request)."""
        definition = self.document.definitions[0]
        assert isinstance(definition, OperationDefinitionNode)
        declared = {variable.variable.name.value for variable in definition.variable_definitions or ()}
        return {name: value() for name, value in FIXED_VARIABLES.items() if name in declared}


@cache
def _definition(stem: str) -> OperationDefinitionNode | FragmentDefinitionNode:
    """The one definition of `<stem>.graphql`, parsed on first use: a run parses only the
    documents it sends (parsing all of them at import was a tenth of the start-up's own time)."""
    path = DIRECTORY / f"{stem}.graphql"
    document = parse(path.read_text(encoding="utf-8"))
    if len(document.definitions) != 1:
        raise ValueError(f"{path.name}: one definition per file, found {len(document.definitions)}")
    definition = document.definitions[0]
    if isinstance(definition, OperationDefinitionNode):
        if definition.name is None or definition.name.value != path.stem:
            raise ValueError(f"{path.name}: the operation must be named {path.stem}")
        return definition
    if isinstance(definition, FragmentDefinitionNode):
        if definition.name.value != path.stem:
            raise ValueError(f"{path.name}: the fragment must be named {path.stem}")
        return definition
    raise ValueError(f"{path.name}: not an operation or fragment")


def _fragment(name: str) -> FragmentDefinitionNode:
    definition = _definition(name)
    if not isinstance(definition, FragmentDefinitionNode):
        raise ValueError(f"{name}.graphql: a fragment spread names an operation")
    return definition


def _spreads(node: Node) -> Iterator[str]:
    found: list[str] = []

    class Collect(Visitor):
        def enter_fragment_spread(self, spread: FragmentSpreadNode, *_: object) -> None:
            found.append(spread.name.value)

    visit(node, Collect())
    yield from found


def _with_fragments(operation: OperationDefinitionNode) -> DocumentNode:
    needed: list[str] = []
    pending = list(_spreads(operation))
    while pending:
        name = pending.pop()
        if name in needed:
            continue
        needed.append(name)
        pending.extend(_spreads(_fragment(name)))
    definitions = [operation, *(_fragment(name) for name in sorted(needed))]
    return DocumentNode(definitions=tuple(definitions))


def operation(name: str) -> Operation:
    """The named operation as written, with its fragments."""
    definition = _definition(name) if (DIRECTORY / f"{name}.graphql").is_file() else None
    if not isinstance(definition, OperationDefinitionNode):
        raise KeyError(name)
    return Operation(name=name, document=_with_fragments(definition))


def operation_names() -> list[str]:
    """Every operation of the project (the schema test validates each)."""
    stems = sorted(path.stem for path in DIRECTORY.glob("*.graphql"))
    return [stem for stem in stems if isinstance(_definition(stem), OperationDefinitionNode)]


def _variables_in(node: Node) -> set[str]:
    names: set[str] = set()

    class Collect(Visitor):
        def enter_variable(self, variable: VariableNode, *_: object) -> None:
            names.add(variable.name.value)

    visit(node, Collect())
    return names


def _rename_variables(node: FieldNode, renames: Mapping[str, str]) -> FieldNode:
    class Rename(Visitor):
        def enter_variable(self, variable: VariableNode, *_: object) -> VariableNode | None:
            new = renames.get(variable.name.value)
            if new is None:
                return None
            return VariableNode(name=NameNode(value=new))

    result = visit(node, Rename())
    assert isinstance(result, FieldNode)
    return result


def _alias(field: FieldNode) -> str:
    return (field.alias or field.name).value


def expand(op: Operation, counts: Mapping[str, int]) -> Operation:
    """Repeat each field whose alias is in `counts` that many times (0 removes it).

    The copies are aliased `<alias>_<i>` and their own variables renamed `<var>_<i>`;
    variables shared with the rest of the operation (owner, name) and the fixed ones stay as they are.
    A selection left empty is removed; unused variable definitions are dropped.
    """
    definition = op.document.definitions[0]
    assert isinstance(definition, OperationDefinitionNode)
    expandable: dict[str, FieldNode] = {}

    def find(selection_set: SelectionSetNode | None) -> None:
        if selection_set is None:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode) and _alias(selection) in counts:
                expandable[_alias(selection)] = selection
            elif isinstance(selection, FieldNode | InlineFragmentNode):
                find(selection.selection_set)

    find(definition.selection_set)
    missing = set(counts) - set(expandable)
    if missing:
        raise KeyError(f"{op.name} has no field aliased {sorted(missing)}")
    shared: set[str] = set(FIXED_VARIABLES)
    for selection in definition.selection_set.selections:
        shared |= _variables_outside(selection, {id(field) for field in expandable.values()})
    own = {alias: _variables_in(field) - shared for alias, field in expandable.items()}

    def rebuild(selection_set: SelectionSetNode) -> SelectionSetNode:
        out: list[SelectionNode] = []
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode) and _alias(selection) in counts:
                alias = _alias(selection)
                for index in range(counts[alias]):
                    renamed = _rename_variables(selection, {v: f"{v}_{index}" for v in own[alias]})
                    out.append(
                        FieldNode(
                            alias=NameNode(value=f"{alias}_{index}"),
                            name=renamed.name,
                            arguments=renamed.arguments,
                            directives=renamed.directives,
                            selection_set=renamed.selection_set,
                        )
                    )
            elif isinstance(selection, FieldNode) and selection.selection_set is not None:
                inner = rebuild(selection.selection_set)
                if inner.selections:
                    out.append(
                        FieldNode(
                            alias=selection.alias,
                            name=selection.name,
                            arguments=selection.arguments,
                            directives=selection.directives,
                            selection_set=inner,
                        )
                    )
            elif isinstance(selection, InlineFragmentNode):
                inner = rebuild(selection.selection_set)
                if inner.selections:
                    out.append(
                        InlineFragmentNode(
                            type_condition=selection.type_condition,
                            directives=selection.directives,
                            selection_set=inner,
                        )
                    )
            else:
                out.append(selection)
        return SelectionSetNode(selections=tuple(out))

    selection_set = rebuild(definition.selection_set)
    used = _variables_in(selection_set)
    variable_definitions: list[VariableDefinitionNode] = []
    for variable in definition.variable_definitions or ():
        name = variable.variable.name.value
        copies = [name] if name in used else sorted(n for n in used if n.rsplit("_", 1)[0] == name)
        for copy in copies:
            variable_definitions.append(
                VariableDefinitionNode(
                    variable=VariableNode(name=NameNode(value=copy)),
                    type=variable.type,
                    default_value=variable.default_value,
                    directives=variable.directives,
                )
            )
    expanded = OperationDefinitionNode(
        operation=definition.operation,
        name=definition.name,
        variable_definitions=tuple(variable_definitions),
        directives=definition.directives,
        selection_set=selection_set,
    )
    return Operation(name=op.name, document=_with_fragments(expanded))


def _variables_outside(selection: SelectionNode, excluded: set[int]) -> set[str]:
    """Variables a selection uses outside the excluded fields."""
    if id(selection) in excluded:
        return set()
    if isinstance(selection, FieldNode):
        names: set[str] = set()
        for argument in selection.arguments or ():
            names |= _variables_in(argument)
        for directive in selection.directives or ():
            names |= _variables_in(directive)
        if selection.selection_set is not None:
            for inner in selection.selection_set.selections:
                names |= _variables_outside(inner, excluded)
        return names
    if isinstance(selection, InlineFragmentNode):
        inner_names: set[str] = set()
        for inner in selection.selection_set.selections:
            inner_names |= _variables_outside(inner, excluded)
        return inner_names
    return _variables_in(selection)
