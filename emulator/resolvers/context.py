"""What every resolver may read about the request, and GitHub's shape of a field error."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphql import GraphQLError, GraphQLResolveInfo

from emulator.cost import Analysis
from emulator.store import Store

Args = dict[str, Any]
Info = GraphQLResolveInfo[Any]


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


def unknown_id(value: Any) -> GraphQLError:
    """The NOT_FOUND error of a global id that names nothing."""
    return github_error(f"Could not resolve to a node with the global id of '{value}'", "NOT_FOUND")


def context(info: Info) -> Context:
    """The request context of a resolver."""
    found = info.context
    assert isinstance(found, Context)
    return found
