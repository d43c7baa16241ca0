"""The field and type resolvers graphql-core calls, and the retyping applied after execution.

A field the emulator does not serve resolves to null when the schema allows it and to a clear
error otherwise.
"""

from __future__ import annotations

import inspect
from typing import Any

from graphql import GraphQLAbstractType, GraphQLError, GraphQLResolveInfo, is_non_null_type

_MISSING = object()


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
