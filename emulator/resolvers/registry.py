"""The one node registry: which class resolves each GraphQL type that has a global id.

Each node class registers itself for its typenames and says, in ``find``, which object a world
key names (None when none). ``node(id)`` and ``nodes(ids)`` look ids up here, and a module that
needs another module's object (a Ref's or a comment's repository) asks here by typename instead
of importing that module, so no two resolver modules import each other.

The registry is complete once ``emulator.resolvers.query`` is imported (it imports every node
module); asking ``build`` for a typename nobody registered is a programming error and says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from emulator.ids import parse_node_id
from emulator.store import Store

Finder = Callable[[Store, str, str], Any]


class Findable(Protocol):
    """A node class: ``find`` gives the object a world key names, or None."""

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> Any:
        """The object of ``typename`` whose world key is ``key``, or None."""
        ...


N = TypeVar("N", bound=Findable)


class NodeRegistry:
    """Typename -> the ``find(store, typename, key)`` of the class that resolves it."""

    def __init__(self) -> None:
        self._finders: dict[str, Finder] = {}

    def register(self, *typenames: str) -> Callable[[type[N]], type[N]]:
        """Class decorator: the class's ``find`` resolves these typenames (each in one class only)."""

        def add(cls: type[N]) -> type[N]:
            for typename in typenames:
                if typename in self._finders:
                    raise ValueError(f"{typename} is already registered")
                self._finders[typename] = cls.find
            return cls

        return add

    def typenames(self) -> set[str]:
        """Every registered typename."""
        return set(self._finders)

    def find(self, store: Store, typename: str, key: str) -> Any:
        """The object of ``typename`` with world key ``key``, or None (unknown type or key)."""
        finder = self._finders.get(typename)
        return None if finder is None else finder(store, typename, key)

    def find_id(self, store: Store, value: str) -> Any:
        """The object of a global id, or None."""
        parsed = parse_node_id(value)
        return None if parsed is None else self.find(store, *parsed)

    def build(self, store: Store, typename: str, key: str) -> Any:
        """The object of ``typename`` and ``key``, for resolvers that know it exists."""
        if typename not in self._finders:
            raise LookupError(
                f"no resolver class registered for {typename} (import emulator.resolvers.query)"
            )
        return self._finders[typename](store, typename, key)


NODES = NodeRegistry()
