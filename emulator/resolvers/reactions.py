"""Reactions on an issue or a comment: one reaction, the groups by content, and what both share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from emulator.ids import node_id
from emulator.pagination import Connection, paginate
from emulator.resolvers.actors import ActorNode, actor
from emulator.resolvers.context import Args, Info, context
from emulator.resolvers.registry import NODES
from emulator.store import Store
from emulator.world import REACTION_CONTENTS, Reaction, iso


@NODES.register("Reaction")
class ReactionNode:
    """One reaction; ``user`` is null for deleted accounts; a bot reactor is typed Bot (see ``user``).

    Its world key is ``c<comment id>:<index>`` or ``i<issue number>:<index>``.
    """

    typename = "Reaction"

    def __init__(self, store: Store, reaction: Reaction, key: str) -> None:
        self._store = store
        self._reaction = reaction
        self.id = node_id("Reaction", key)
        self.content = reaction.content
        self.createdAt = iso(reaction.at)

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> ReactionNode | None:
        """The reaction at an index of a comment's or an issue's reactions."""
        owner, _, index_text = key.partition(":")
        if not index_text.isdigit():
            return None
        if owner.startswith("c") and owner[1:].isdigit():
            found = store.comment(int(owner[1:]))
            reactions = found[1].reactions if found else ()
        elif owner.startswith("i") and owner[1:].isdigit() and int(owner[1:]) in store.items:
            reactions = store.items[int(owner[1:])].reactions
        else:
            return None
        index = int(index_text)
        return cls(store, reactions[index], key) if index < len(reactions) else None

    def user(self, info: Info, args: Args) -> ActorNode | None:
        """The reactor: null for a deleted account; a Bot comes typed Bot although the field says User.

        GitHub answers a bot's reaction that way (the field is typed User in the schema); an
        Organization or Mannequin reactor is null here.
        """
        found = actor(self._store, self._reaction.user)
        if found is None or found.typename not in ("User", "Bot"):
            return None
        if found.typename == "Bot":
            context(info).typenames[tuple(info.path.as_list())] = "Bot"
        return found


class ReactionGroupNode:
    """All reactions of one content on a subject."""

    typename = "ReactionGroup"

    def __init__(self, store: Store, content: str, reactions: list[Reaction], subject: Any) -> None:
        self._store = store
        self._reactions = reactions
        self.content = content
        self.createdAt = iso(reactions[0].at) if reactions else None
        self.subject = subject

    def _actors(self, args: Args, keep: Callable[[Reaction], bool] | None = None) -> Connection[Any]:
        """One page of the reactions' actors (null for deleted accounts), those `keep` keeps."""
        return paginate(
            self._reactions,
            args,
            lambda r: str(self._reactions.index(r)),
            int_position(len(self._reactions)),
            lambda r: actor(self._store, r.user),
            keep=keep,
        )

    def reactors(self, info: Info, args: Args) -> Connection[Any]:
        """The reacting actors (null for deleted accounts)."""
        return self._actors(args)

    def users(self, info: Info, args: Args) -> Connection[Any]:
        """The reacting Users."""
        return self._actors(args, lambda r: r.user is not None and self._store.actor_type(r.user) == "User")

    def viewerHasReacted(self, info: Info, args: Args) -> bool:
        """Whether the viewer is among the reactors."""
        viewer = context(info).viewer.lower()
        return any((r.user or "").lower() == viewer for r in self._reactions)


def reaction_groups(store: Store, reactions: tuple[Reaction, ...], subject: Any) -> list[ReactionGroupNode]:
    """One group per reaction content, in GitHub's order, empty ones included."""
    return [
        ReactionGroupNode(store, content, [r for r in reactions if r.content == content], subject)
        for content in REACTION_CONTENTS
    ]


def int_position(length: int) -> Callable[[str], int | None]:
    """The position of a cursor key that is an index below ``length``."""

    def position(key: str) -> int | None:
        return int(key) if key.isdigit() and int(key) < length else None

    return position


class Reactable:
    """Reactions and reaction groups of a comment or an issue."""

    _store: Store
    _reaction_prefix: str

    def _reaction_list(self) -> tuple[Reaction, ...]:
        raise NotImplementedError

    def reaction_node(self, reaction: Reaction) -> ReactionNode:
        """The Reaction object of one of this subject's reactions (addReaction's answer)."""
        index = self._reaction_list().index(reaction)
        return ReactionNode(self._store, reaction, f"{self._reaction_prefix}:{index}")

    def own_reactions(self) -> tuple[Reaction, ...]:
        """The subject's reactions, oldest first."""
        return self._reaction_list()

    def reactions(self, info: Info, args: Args) -> Connection[Reaction]:
        """Reactions, oldest first, filtered by ``content`` server side."""
        reactions = self._reaction_list()
        content = args.get("content")
        index = {id(r): i for i, r in enumerate(reactions)}
        return paginate(
            reactions,
            args,
            lambda r: str(index[id(r)]),
            int_position(len(reactions)),
            lambda r: ReactionNode(self._store, r, f"{self._reaction_prefix}:{index[id(r)]}"),
            keep=(lambda r: r.content == content) if content else None,
        )

    def reactionGroups(self, info: Info, args: Args) -> list[ReactionGroupNode]:
        """One group per reaction content, in GitHub's order, empty ones included."""
        return reaction_groups(self._store, self._reaction_list(), self)
