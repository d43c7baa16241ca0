"""Accounts: a User, Bot, Mannequin or Organization, and a deleted one (null)."""

from __future__ import annotations

from emulator.ids import node_id
from emulator.resolvers.context import Args, Info
from emulator.resolvers.registry import NODES
from emulator.store import Store

BASE = "https://github.com"


@NODES.register("User", "Bot", "Mannequin", "Organization")
class ActorNode:
    """A User, Bot, Mannequin or Organization; a Bot's login has no ``[bot]`` suffix."""

    def __init__(self, store: Store, login: str, typename: str | None = None) -> None:
        self.typename = typename or store.actor_type(login)
        self.login = login.removesuffix("[bot]") if self.typename == "Bot" else login
        self.id = node_id(self.typename, self.login)
        self.resourcePath = f"/{'apps/' if self.typename == 'Bot' else ''}{self.login}"
        self.url = BASE + self.resourcePath
        self.name = None

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> ActorNode:
        """Any login resolves, typed as its id says."""
        return cls(store, key, typename)

    def avatarUrl(self, info: Info, args: Args) -> str:
        """A stable avatar address."""
        return f"https://avatars.githubusercontent.com/{self.login}"


def actor(store: Store, login: str | None) -> ActorNode | None:
    """The actor of a login; None for a deleted account (GitHub's ghost)."""
    return None if login is None else ActorNode(store, login)


__all__ = ["ActorNode", "actor"]
