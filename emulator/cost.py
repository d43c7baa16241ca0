"""GitHub's query limits and rate-limit cost, computed before a query runs.

https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api
- every connection that selects items needs ``first`` or ``last`` between 1 and 100;
- nodes: the page sizes multiplied down each path, summed; at most 500,000;
- cost: the requests needed to fill each connection assuming each ``first``/``last`` is
  reached (a connection inside a page of 100 is fetched 100 times), summed, divided by
  100, rounded to the nearest whole number, at least 1.
Fields that ``@include``/``@skip`` leave out count for nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLIncludeDirective,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLSkipDirective,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    get_named_type,
)
from graphql.execution.values import VariableValues, get_argument_values, get_directive_values

MAX_PAGE = 100
MAX_NODES = 500_000
MAX_NODE_IDS = 100  # nodes(ids:): recorded in sourcecred/sourcecred#908
ITEM_FIELDS = ("edges", "nodes")


@dataclass
class Analysis:
    """What a query would cost and which of GitHub's limits it breaks (as GitHub-shaped errors)."""

    requests: int = 0
    nodes: int = 0
    dry_run: bool = False
    refusals: list[dict[str, Any]] = field(default_factory=list)

    @property
    def cost(self) -> int:
        """Points: requests / 100 rounded half up, at least 1."""
        return max(1, (self.requests + 50) // 100)


def _included(node: FieldNode | FragmentSpreadNode | InlineFragmentNode, variables: VariableValues) -> bool:
    if not node.directives:
        return True
    skip = get_directive_values(GraphQLSkipDirective, node, variables)
    if skip and skip["if"]:
        return False
    include = get_directive_values(GraphQLIncludeDirective, node, variables)
    return not (include and not include["if"])


def _where(node: FieldNode) -> list[dict[str, int]]:
    """GitHub's ``locations`` of a field: line and column where it starts."""
    if not node.loc:
        return []
    location = node.loc.source.get_location(node.loc.start)
    return [{"line": location.line, "column": location.column}]


class _Walker:
    def __init__(
        self, schema: GraphQLSchema, fragments: dict[str, FragmentDefinitionNode], variables: VariableValues
    ) -> None:
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.result = Analysis()
        # The connection where the node count first passes the limit, and its own node count.
        self.crossing: tuple[str, int] | None = None

    def _fields(self, parent: Any, selection_set: SelectionSetNode) -> list[tuple[Any, FieldNode]]:
        """Included field nodes of a selection set with the type each is selected on."""
        out: list[tuple[Any, FieldNode]] = []
        for selection in selection_set.selections:
            if not _included(selection, self.variables):  # type: ignore[arg-type]
                continue
            if isinstance(selection, FieldNode):
                out.append((parent, selection))
            elif isinstance(selection, InlineFragmentNode):
                inner = (
                    self.schema.get_type(selection.type_condition.name.value)
                    if selection.type_condition
                    else parent
                )
                out.extend(self._fields(inner, selection.selection_set))
            elif isinstance(selection, FragmentSpreadNode):
                fragment = self.fragments.get(selection.name.value)
                if fragment is not None:
                    inner = self.schema.get_type(fragment.type_condition.name.value)
                    out.extend(self._fields(inner, fragment.selection_set))
        return out

    def _selects_items(self, parent: Any, selection_set: SelectionSetNode | None) -> bool:
        if selection_set is None:
            return False
        return any(node.name.value in ITEM_FIELDS for _, node in self._fields(parent, selection_set))

    def walk(self, parent: Any, selection_set: SelectionSetNode, multiplier: int, path: list[str]) -> None:
        """Add up requests and nodes below ``parent``, each page fetched ``multiplier`` times."""
        for owner, node in self._fields(parent, selection_set):
            name = node.name.value
            fields = getattr(owner, "fields", None)
            if name.startswith("__") or fields is None or name not in fields:
                continue
            definition = fields[name]
            key = node.alias.value if node.alias else name
            args = get_argument_values(definition, node, self.variables)
            named = get_named_type(definition.type)
            if name == "rateLimit" and args.get("dryRun"):
                self.result.dry_run = True
            if name == "nodes" and len(args.get("ids") or ()) > MAX_NODE_IDS:
                self.result.refusals.append(
                    {
                        "message": f"You may not provide more than {MAX_NODE_IDS} node ids; "
                        f"you provided {len(args['ids'])}.",
                        "type": "ARGUMENT_LIMIT",
                        "path": [*path, key],
                        "locations": _where(node),
                    }
                )
            inner_path = [*path, key]
            if (
                isinstance(named, GraphQLObjectType)
                and named.name.endswith("Connection")
                and ("first" in definition.args or "last" in definition.args)
            ):
                size = self._page_size(args, name, node, named, inner_path)
                self.result.requests += multiplier
                self.result.nodes += multiplier * size
                if self.result.nodes > MAX_NODES and self.crossing is None:
                    self.crossing = (name, multiplier * size)
                if node.selection_set is not None:
                    self.walk(named, node.selection_set, multiplier * max(size, 1), inner_path)
            elif node.selection_set is not None:
                self.walk(named, node.selection_set, multiplier, inner_path)

    def _page_size(
        self, args: dict[str, Any], name: str, node: FieldNode, named: Any, path: list[str]
    ) -> int:
        first, last = args.get("first"), args.get("last")
        where = _where(node)
        if first is None and last is None:
            if self._selects_items(named, node.selection_set):
                self.result.refusals.append(
                    {
                        "type": "MISSING_PAGINATION_BOUNDARIES",
                        "path": path,
                        "locations": where,
                        "message": "You must provide a `first` or `last` value to properly paginate the "
                        f"`{name}` connection.",
                    }
                )
            return 0
        size = 0
        for arg, value in (("first", first), ("last", last)):
            if value is None:
                continue
            if value > MAX_PAGE:
                self.result.refusals.append(
                    {
                        "type": "EXCESSIVE_PAGINATION",
                        "path": path,
                        "locations": where,
                        "message": f"Requesting {value} records on the `{name}` connection "
                        f"exceeds the `{arg}` limit of "
                        f"{MAX_PAGE} records.",
                    }
                )
            elif value < 1:
                self.result.refusals.append(
                    {
                        "type": "EXCESSIVE_PAGINATION",
                        "path": path,
                        "locations": where,
                        "message": f"`{arg}` on the `{name}` connection cannot be less than one.",
                    }
                )
            size = max(size, min(max(value, 0), MAX_PAGE))
        return size


def analyze(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: dict[str, FragmentDefinitionNode],
    variables: VariableValues,
) -> Analysis:
    """Cost, node count and limit refusals of one (validated) operation with coerced variables."""
    root = schema.get_root_type(operation.operation)
    walker = _Walker(schema, fragments, variables)
    if root is not None:
        walker.walk(root, operation.selection_set, 1, [])
    result = walker.result
    if walker.crossing is not None:
        # GitHub's words, as quoted in flutter/cocoon#644 and digitaldrywood/detent#629: the
        # connection where the limit is passed, and the nodes it alone would fetch.
        connection, count = walker.crossing
        result.refusals.append(
            {
                "type": "MAX_NODE_LIMIT_EXCEEDED",
                "message": f"By the time this query traverses to the {connection} connection, it is "
                f"requesting up to {count:,} possible nodes which exceeds the maximum limit of {MAX_NODES:,}.",
            }
        )
    return result
