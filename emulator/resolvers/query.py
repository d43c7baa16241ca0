"""The Query root: the repository, the viewer, users, the rate limit, nodes by id, and search."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from emulator.pagination import Connection, paginate
from emulator.resolvers.actors import ActorNode
from emulator.resolvers.context import Args, Info, context, github_error, unknown_id
from emulator.resolvers.issues import IssueNode
from emulator.resolvers.registry import NODES
from emulator.resolvers.repository import RepositoryNode
from emulator.resolvers.search import search_numbers
from emulator.store import Store
from emulator.world import iso


class QueryRoot:
    """The Query type."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def repository(self, info: Info, args: Args) -> RepositoryNode:
        """The world's repository; NOT_FOUND for any other."""
        if not self._store.is_repo(args["owner"], args["name"]):
            raise github_error(
                f"Could not resolve to a Repository with the name '{args['owner']}/{args['name']}'.",
                "NOT_FOUND",
            )
        return RepositoryNode(self._store)

    def viewer(self, info: Info, args: Args) -> ActorNode:
        """The token's account, typed User as the schema requires; an app's login keeps ``[bot]``.

        An installation token (GITHUB_TOKEN included) answers ``<slug>[bot]`` (docs/emulator.md).
        """
        login = context(info).viewer
        if self._store.actor_type(login) == "Bot" and not login.lower().endswith("[bot]"):
            login = f"{login}[bot]"
        return ActorNode(self._store, login, "User")

    def user(self, info: Info, args: Args) -> ActorNode | None:
        """A user by login."""
        return ActorNode(self._store, args["login"], "User")

    def rateLimit(self, info: Info, args: Args) -> dict[str, Any]:
        """This request's cost and the token's budget after it."""
        ctx = context(info)
        return {
            "cost": ctx.analysis.cost,
            "limit": ctx.budget.limit,
            "remaining": ctx.budget.remaining,
            "used": ctx.budget.used,
            "resetAt": iso(datetime.fromtimestamp(ctx.budget.reset_at, UTC)),
            "nodeCount": ctx.analysis.nodes,
        }

    def node(self, info: Info, args: Args) -> Any:
        """Any object by global id."""
        found = NODES.find_id(self._store, args["id"])
        if found is None:
            raise unknown_id(args["id"])
        return found

    def nodes(self, info: Info, args: Args) -> list[Any]:
        """Objects by global ids; null (with an error) for each unknown id."""
        out: list[Any] = []
        for value in args["ids"]:
            found = NODES.find_id(self._store, value)
            out.append(found if found is not None else unknown_id(value))
        return out

    def search(self, info: Info, args: Args) -> Connection[int]:
        """Issue search (type ISSUE); other types find nothing."""
        if args["type"] != "ISSUE":
            numbers: list[int] = []
        else:
            numbers = search_numbers(self._store, args["query"]) or []
        position = {str(i): i for i in range(len(numbers))}
        ordered = list(range(len(numbers)))
        return paginate(ordered, args, str, position.get, lambda i: IssueNode(self._store, numbers[i]))
