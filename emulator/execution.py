"""One GraphQL request, as GitHub answers it: parse, validate, limits, budget, execute.

Errors take GitHub's shapes: validation errors with ``extensions.code`` (``undefinedField``
...) and a path of response keys under the operation; limit refusals (MISSING_PAGINATION_
BOUNDARIES, EXCESSIVE_PAGINATION, MAX_NODE_LIMIT_EXCEEDED) and RATE_LIMITED without data;
field errors with ``type`` beside ``message``, ``path`` and ``locations``.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from graphql import (
    DocumentNode,
    ExecutionResult,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLSchema,
    GraphQLSyntaxError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    execute,
    parse,
    validate,
)
from graphql.execution.values import get_variable_values

from emulator.cost import Analysis, analyze
from emulator.faults import PARTIAL_MESSAGES, PartialFault, request_id, timeout_body
from emulator.resolvers.context import Budget, Context
from emulator.resolvers.fields import field_resolver, retype, type_resolver
from emulator.resolvers.mutation import MutationRoot
from emulator.resolvers.query import QueryRoot
from emulator.store import Store


@dataclass
class Answer:
    """What to send back for one GraphQL request, and what the log records of it."""

    body: dict[str, Any]
    operation: str | None = None
    cost: int = 0
    nodes: int = 0
    budget: Budget | None = None
    status: int = 200
    # The server-time model's time for this query (0 without a model), and whether it ran out.
    server_ms: float = 0.0
    timed_out: bool = False


# A workflow's GITHUB_TOKEN: 1,000 GraphQL points an hour per repository (GitHub's docs, "Rate
# limits and query limits for the GraphQL API"), shared by every workflow run of the repository.
GITHUB_TOKEN_POINTS = 1000
WORKFLOW_BUDGET = "(the repository's GITHUB_TOKEN)"


@dataclass
class Budgets:
    """Per-token budgets: each token has its own limit, use and reset time.

    With `workflow` (a test of a token: does it act as `github-actions`?), every workflow token
    shares one budget of `workflow_limit` points, the repository's. A window ends `reset_in_s`
    after it began on the wall clock, or on the world's clock (`clock`, the world's `now` that a
    simulation moves) when that has moved as far: a simulated week's runs are hours apart.
    """

    limit: int = 5000
    start_remaining: int | None = None
    reset_in_s: int = 3600
    workflow: Callable[[str], bool] | None = None
    workflow_limit: int = GITHUB_TOKEN_POINTS
    clock: Callable[[], datetime | None] = field(default=lambda: None)
    used: dict[str, int] = field(default_factory=dict)
    reset_at: dict[str, int] = field(default_factory=dict)
    began: dict[str, datetime | None] = field(default_factory=dict)

    def _key(self, token: str) -> tuple[str, int]:
        if self.workflow is not None and self.workflow(token):
            return WORKFLOW_BUDGET, self.workflow_limit
        return token, self.limit

    def peek(self, token: str) -> Budget:
        """The token's budget now (a new window begins after the reset time)."""
        key, limit = self._key(token)
        now = int(time.time())
        world = self.clock()
        began = self.began.get(key)
        moved = (
            world is not None and began is not None and world >= began + timedelta(seconds=self.reset_in_s)
        )
        if key not in self.reset_at or self.reset_at[key] <= now or moved:
            self.reset_at[key] = now + self.reset_in_s
            self.began[key] = world
            start = min(self.start_remaining, limit) if self.start_remaining is not None else limit
            self.used[key] = limit - start
        used = self.used[key]
        return Budget(limit, max(0, limit - used), used, self.reset_at[key])

    def charge(self, token: str, points: int) -> Budget:
        """Spend points; returns the budget after it."""
        self.peek(token)
        self.used[self._key(token)[0]] += points
        return self.peek(token)


def operation_name(document: DocumentNode, wanted: str | None) -> OperationDefinitionNode | None:
    """The operation to run: the named one, or the only one."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if wanted:
        return next((op for op in operations if op.name and op.name.value == wanted), None)
    return operations[0] if len(operations) == 1 else None


def _selection_paths(document: DocumentNode) -> dict[int, list[str]]:
    """GitHub's validation-error path of each selection: operation label, then response keys."""
    paths: dict[int, list[str]] = {}

    def walk(selection_set: SelectionSetNode | None, prefix: list[str]) -> None:
        if selection_set is None:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                path = [*prefix, selection.alias.value if selection.alias else selection.name.value]
                paths[id(selection)] = path
                walk(selection.selection_set, path)
            elif isinstance(selection, InlineFragmentNode):
                label = f"... on {selection.type_condition.name.value}" if selection.type_condition else "..."
                paths[id(selection)] = [*prefix, label]
                walk(selection.selection_set, [*prefix, label])
            elif isinstance(selection, FragmentSpreadNode):
                paths[id(selection)] = [*prefix, f"... {selection.name.value}"]

    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            kind = definition.operation.value
            label = f"{kind} {definition.name.value}" if definition.name else kind
            paths[id(definition)] = [label]
            walk(definition.selection_set, [label])
        elif isinstance(definition, FragmentDefinitionNode):
            label = f"fragment {definition.name.value}"
            paths[id(definition)] = [label]
            walk(definition.selection_set, [label])
    return paths


_Q = "['\"]"
_TRANSLATIONS: list[tuple[re.Pattern[str], Any]] = [
    (
        re.compile(rf"Cannot query field {_Q}(\w+){_Q} on type {_Q}(\w+){_Q}"),
        lambda m: (
            f"Field '{m[1]}' doesn't exist on type '{m[2]}'",
            {"code": "undefinedField", "typeName": m[2], "fieldName": m[1]},
        ),
    ),
    (
        re.compile(rf"Unknown argument {_Q}(\w+){_Q} on field {_Q}(\w+)\.(\w+){_Q}"),
        lambda m: (
            f"Field '{m[3]}' doesn't accept argument '{m[1]}'",
            {"code": "argumentNotAccepted", "name": m[3], "typeName": "Field", "argumentName": m[1]},
        ),
    ),
    (
        re.compile(rf"Argument {_Q}(\w+)\.(\w+)\((\w+):\){_Q} of type .* is required"),
        lambda m: (
            f"Field '{m[2]}' is missing required arguments: {m[3]}",
            {"code": "missingRequiredArguments", "className": "Field", "name": m[2], "arguments": m[3]},
        ),
    ),
    (
        re.compile(rf"Field {_Q}(\w+){_Q} of type {_Q}([^'\"]+){_Q} must have a selection of subfields"),
        lambda m: (
            f"Field must have selections (field '{m[1]}' returns {m[2].strip('[]!')} but has no selections. "
            f"Did you mean '{m[1]} {{ ... }}'?)",
            {"code": "selectionMismatch", "nodeName": m[1]},
        ),
    ),
    (
        re.compile(rf"Unknown type {_Q}(\w+){_Q}"),
        lambda m: (
            f"No such type {m[1]}, so it can't be a fragment condition",
            {"code": "undefinedType", "typeName": m[1]},
        ),
    ),
    (
        re.compile(rf"Variable {_Q}\$(\w+){_Q} is never used"),
        lambda m: (
            f"Variable ${m[1]} is declared but not used",
            {"code": "variableNotUsed", "variableName": m[1]},
        ),
    ),
    (
        re.compile(rf"Variable {_Q}\$(\w+){_Q} is not defined"),
        lambda m: (
            f"Variable ${m[1]} is used but not declared",
            {"code": "variableNotDefined", "variableName": m[1]},
        ),
    ),
]


def _validation_error(error: GraphQLError, paths: dict[int, list[str]]) -> dict[str, Any]:
    message = error.message
    extensions: dict[str, Any] = {"code": "validationError"}
    for pattern, translate in _TRANSLATIONS:
        found = pattern.search(message)
        if found:
            message, extensions = translate(found)
            break
    out: dict[str, Any] = {}
    node = error.nodes[0] if error.nodes else None
    if node is not None and id(node) in paths:
        out["path"] = paths[id(node)]
    out["extensions"] = extensions
    if error.locations:
        out["locations"] = [{"line": loc.line, "column": loc.column} for loc in error.locations]
    out["message"] = message
    return out


def github_errors(errors: list[GraphQLError]) -> list[dict[str, Any]]:
    """Execution errors in GitHub's shape: ``type`` at the top, then path, locations, message."""
    out = []
    for error in errors:
        formatted = error.formatted
        extensions = dict(formatted.get("extensions") or {})
        item: dict[str, Any] = {}
        if "type" in extensions:
            item["type"] = extensions.pop("type")
        if formatted.get("path") is not None:
            item["path"] = formatted["path"]
        if formatted.get("locations"):
            item["locations"] = formatted["locations"]
        item["message"] = formatted["message"]
        if extensions:
            item["extensions"] = extensions
        out.append(item)
    return out


def _rate_limit_only(
    document: DocumentNode, operation: OperationDefinitionNode
) -> tuple[DocumentNode, OperationDefinitionNode]:
    """The operation with only its top-level ``rateLimit`` fields: a dry run evaluates nothing else."""
    kept = tuple(
        selection
        for selection in operation.selection_set.selections
        if isinstance(selection, FieldNode) and selection.name.value == "rateLimit"
    )
    priced = dataclasses.replace(operation, selection_set=SelectionSetNode(selections=kept))
    others = tuple(d for d in document.definitions if d is not operation)
    return DocumentNode(definitions=(priced, *others)), priced


class Executor:
    """Runs GraphQL requests against one store with GitHub's limits and per-token budgets."""

    def __init__(self, schema: GraphQLSchema, store: Store, budgets: Budgets) -> None:
        self.schema = schema
        self.store = store
        self.budgets = budgets

    def run(self, payload: Any, token: str, partial: PartialFault | None = None) -> Answer:
        """Answer one request body (already JSON-decoded); `partial`: a fault met while executing."""
        if not isinstance(payload, dict) or not isinstance(payload.get("query"), str):
            return Answer(
                {"errors": [{"message": "A query attribute must be specified and must be a string."}]}
            )
        wanted = payload.get("operationName")
        try:
            document = parse(payload["query"])
        except GraphQLSyntaxError as error:
            where = [{"line": loc.line, "column": loc.column} for loc in error.locations or []]
            return Answer({"errors": [{"message": error.message, "locations": where}]}, wanted)
        operation = operation_name(document, wanted)
        name = operation.name.value if operation and operation.name else wanted
        errors = validate(self.schema, document)
        if errors:
            paths = _selection_paths(document)
            return Answer({"errors": [_validation_error(e, paths) for e in errors]}, name)
        if operation is None:
            message = f'Unknown operation named "{wanted}".' if wanted else "An operation name is required"
            return Answer({"errors": [{"message": message}]}, name)
        variables = get_variable_values(
            self.schema, operation.variable_definitions or (), payload.get("variables") or {}
        )
        if isinstance(variables, list):
            return Answer({"errors": github_errors(variables)}, name)
        fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
        analysis = analyze(self.schema, operation, fragments, variables)
        if analysis.refusals:
            body: dict[str, Any] = {"errors": analysis.refusals}
            if any(refusal.get("type") == "ARGUMENT_LIMIT" for refusal in analysis.refusals):
                body = {"data": None, **body}  # as recorded in sourcecred/sourcecred#908
            return Answer(body, name, 0, analysis.nodes)
        before = self.budgets.peek(token)
        if analysis.cost > before.remaining and not analysis.dry_run:
            login = self.store.viewer_login(token)
            return Answer(
                {"errors": [{"type": "RATE_LIMITED", "message": f"API rate limit exceeded for {login}."}]},
                name,
                0,
                analysis.nodes,
                before,
            )
        if analysis.dry_run:
            # "calculate the cost for the query without evaluating it" (GitHub's reference of
            # rateLimit): only the rateLimit fields are answered, nothing is charged.
            document, operation = _rate_limit_only(document, operation)
            return self._execute(document, operation, payload, token, analysis, before, name, partial)
        budget = self.budgets.charge(token, analysis.cost)
        model = self.store.file.server_time
        if model is None or operation.operation.value != "query":
            return self._execute(document, operation, payload, token, analysis, budget, name, partial)
        server_ms = model.modelled_ms(analysis.nodes)
        if server_ms <= model.limit_ms:
            answer = self._execute(document, operation, payload, token, analysis, budget, name, partial)
            answer.server_ms = server_ms
            return answer
        # Over GitHub's limit: the points are charged all the same (timeouts count against the
        # primary rate limit), and the answer is the world's choice of GitHub's two refusals.
        if model.answer == "resource_limits":
            answer = self._execute(document, operation, payload, token, analysis, budget, name, partial)
            answer.body = _resource_limits(answer.body)
        else:
            status = 502 if model.answer == "timeout_502" else 200
            answer = Answer(timeout_body(request_id()), name, analysis.cost, analysis.nodes, budget, status)
        answer.server_ms = model.limit_ms
        answer.timed_out = True
        return answer

    def _execute(  # noqa: PLR0917
        self,
        document: DocumentNode,
        operation: OperationDefinitionNode,
        payload: dict[str, Any],
        token: str,
        analysis: Analysis,
        budget: Budget,
        name: str | None,
        partial: PartialFault | None = None,
    ) -> Answer:
        context = Context(self.store, self.store.viewer_login(token), analysis, budget)
        root: Any = (
            MutationRoot(self.store) if operation.operation.value == "mutation" else QueryRoot(self.store)
        )
        result = execute(
            self.schema,
            document,
            root_value=root,
            context_value=context,
            variable_values=payload.get("variables") or {},
            operation_name=payload.get("operationName"),
            field_resolver=field_resolver,
            type_resolver=type_resolver,
            # Only with a fault: a middleware wraps every resolver call.
            middleware=[partial] if partial is not None else None,
        )
        assert isinstance(result, ExecutionResult)
        if context.typenames and result.data is not None:
            retype(result.data, context.typenames)
        body: dict[str, Any] = {"data": result.data}
        if result.errors:
            body["errors"] = github_errors(list(result.errors))
        return Answer(body, name, analysis.cost, analysis.nodes, budget)


def _resource_limits(body: dict[str, Any]) -> dict[str, Any]:
    """GitHub's RESOURCE_LIMITS_EXCEEDED answer: each top-level field but `rateLimit` nulled,
    with a typed error at its path (HTTP 200)."""
    data = body.get("data")
    if not isinstance(data, dict):
        return body
    nulled = [key for key, value in data.items() if key != "rateLimit" and value is not None]
    errors = [*body.get("errors", [])] + [
        {
            "type": "RESOURCE_LIMITS_EXCEEDED",
            "path": [key],
            "message": PARTIAL_MESSAGES["RESOURCE_LIMITS_EXCEEDED"],
        }
        for key in nulled
    ]
    return {"data": {key: None if key in nulled else value for key, value in data.items()}, "errors": errors}
