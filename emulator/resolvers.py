"""How graphql-core reaches the world: the field and type resolvers, the request context, errors.

Every GraphQL object is a small Python object whose attributes, properties or methods are
named like the schema's fields; a method receives ``(info, args)``. A field the emulator
does not serve resolves to null when the schema allows it and to a clear error otherwise.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

from graphql import GraphQLAbstractType, GraphQLError, GraphQLResolveInfo, is_non_null_type

from emulator.cost import Analysis
from emulator.store import Store

_MISSING = object()


@dataclass
class Budget:
    """One token's GraphQL rate-limit budget after this request was charged."""

    limit: int
    remaining: int
    used: int
    reset_at: int


@dataclass
class Context:
    """What every resolver may read about the request."""

    store: Store
    viewer: str
    analysis: Analysis
    budget: Budget
    # Response paths of objects GitHub sends with another __typename than the schema's field
    # type (a Bot in Reaction.user, typed User): applied to the answer after execution.
    typenames: dict[tuple[str | int, ...], str] = field(default_factory=dict)


def github_error(message: str, type_: str) -> GraphQLError:
    """A field error in GitHub's shape: ``type`` beside the message (lifted out of extensions later).

    FORBIDDEN carries ``extensions: {"saml_failure": false}`` as GitHub's do
    (tests/conformance/recordings/forbidden_partial.json).
    """
    extensions: dict[str, Any] = {"type": type_}
    if type_ == "FORBIDDEN":
        extensions["saml_failure"] = False
    return GraphQLError(message, extensions=extensions)


def field_resolver(source: Any, info: GraphQLResolveInfo[Any], **args: Any) -> Any:
    """Read the field from the source object: a key, an attribute, or a method called with (info, args)."""
    name = info.field_name
    value = source.get(name, _MISSING) if isinstance(source, dict) else getattr(source, name, _MISSING)
    if value is _MISSING:
        if is_non_null_type(info.return_type):
            raise GraphQLError(f"The emulator does not serve {info.parent_type.name}.{name}.")
        return None
    if inspect.ismethod(value):
        return value(info, args)
    return value


def type_resolver(value: Any, info: GraphQLResolveInfo[Any], abstract_type: GraphQLAbstractType) -> str:
    """Concrete type of an object returned for an interface or union: its ``typename``."""
    return str(value.typename)


def retype(data: Any, typenames: dict[tuple[str | int, ...], str]) -> None:
    """Set ``__typename`` of the objects at the given response paths (where they were selected)."""
    for path, typename in typenames.items():
        target = data
        for step in path:
            if isinstance(target, dict) and isinstance(step, str):
                target = target.get(step)
            elif isinstance(target, list) and isinstance(step, int) and 0 <= step < len(target):
                target = target[step]
            else:
                target = None
        if isinstance(target, dict) and "__typename" in target:
            target["__typename"] = typename


def context(info: GraphQLResolveInfo[Any]) -> Context:
    """The request context of a resolver."""
    found = info.context
    assert isinstance(found, Context)
    return found
