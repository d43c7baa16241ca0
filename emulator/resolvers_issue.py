"""Issues, pull requests, their comments, timeline events, reactions, labels and actors."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from graphql import GraphQLResolveInfo

from emulator.ids import node_id
from emulator.pagination import Connection, paginate
from emulator.resolvers import context
from emulator.store import Store
from emulator.world import REACTION_CONTENTS, CommentItem, Reaction, iso

BASE = "https://github.com"
ITEM_TYPES = {
    "ISSUE_COMMENT": "comment",
    "LABELED_EVENT": "labeled",
    "UNLABELED_EVENT": "unlabeled",
    "CLOSED_EVENT": "closed",
    "REOPENED_EVENT": "reopened",
    "MARKED_AS_DUPLICATE_EVENT": "marked_as_duplicate",
    "UNMARKED_AS_DUPLICATE_EVENT": "unmarked_as_duplicate",
}
EVENT_TYPENAMES = {
    "labeled": "LabeledEvent",
    "unlabeled": "UnlabeledEvent",
    "closed": "ClosedEvent",
    "reopened": "ReopenedEvent",
    "marked_as_duplicate": "MarkedAsDuplicateEvent",
    "unmarked_as_duplicate": "UnmarkedAsDuplicateEvent",
}
Args = dict[str, Any]
Info = GraphQLResolveInfo[Any]


def _parse_time(value: Any) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value).replace("Z", "+00:00"))


class ActorNode:
    """A User, Bot, Mannequin or Organization; a Bot's login has no ``[bot]`` suffix."""

    def __init__(self, store: Store, login: str, typename: str | None = None) -> None:
        self.typename = typename or store.actor_type(login)
        self.login = login.removesuffix("[bot]") if self.typename == "Bot" else login
        self.id = node_id(self.typename, self.login)
        self.resourcePath = f"/{'apps/' if self.typename == 'Bot' else ''}{self.login}"
        self.url = BASE + self.resourcePath
        self.name = None

    def avatarUrl(self, info: Info, args: Args) -> str:
        """A stable avatar address."""
        return f"https://avatars.githubusercontent.com/{self.login}"


def actor(store: Store, login: str | None) -> ActorNode | None:
    """The actor of a login; None for a deleted account (GitHub's ghost)."""
    return None if login is None else ActorNode(store, login)


class LabelNode:
    """A label by name."""

    typename = "Label"

    def __init__(self, store: Store, name: str) -> None:
        info = store.label(name)
        self.name = name
        self.color = info.color
        self.description = info.description
        self.id = node_id("Label", name)
        self.isDefault = False
        self.url = f"{BASE}/{store.name_with_owner}/labels/{name}"


class ReactionNode:
    """One reaction; ``user`` is null for deleted accounts and for non-User reactors (it is typed User)."""

    typename = "Reaction"

    def __init__(self, store: Store, reaction: Reaction, key: str) -> None:
        self._store = store
        self._reaction = reaction
        self.id = node_id("Reaction", key)
        self.content = reaction.content
        self.createdAt = iso(reaction.at)

    @property
    def user(self) -> ActorNode | None:
        """The reacting User."""
        found = actor(self._store, self._reaction.user)
        return found if found is not None and found.typename == "User" else None


class ReactionGroupNode:
    """All reactions of one content on a subject."""

    typename = "ReactionGroup"

    def __init__(self, store: Store, content: str, reactions: list[Reaction], subject: Any) -> None:
        self._store = store
        self._reactions = reactions
        self.content = content
        self.createdAt = iso(reactions[0].at) if reactions else None
        self.subject = subject

    def reactors(self, info: Info, args: Args) -> Connection[Any]:
        """The reacting actors (null for deleted accounts)."""
        return paginate(
            self._reactions,
            args,
            lambda r: str(self._reactions.index(r)),
            _int_position(len(self._reactions)),
            lambda r: actor(self._store, r.user),
        )

    def users(self, info: Info, args: Args) -> Connection[Any]:
        """The reacting Users."""
        return paginate(
            self._reactions,
            args,
            lambda r: str(self._reactions.index(r)),
            _int_position(len(self._reactions)),
            lambda r: actor(self._store, r.user),
            keep=lambda r: r.user is not None and self._store.actor_type(r.user) == "User",
        )

    def viewerHasReacted(self, info: Info, args: Args) -> bool:
        """Whether the viewer is among the reactors."""
        viewer = context(info).viewer.lower()
        return any((r.user or "").lower() == viewer for r in self._reactions)


def _int_position(length: int) -> Any:
    def position(key: str) -> int | None:
        return int(key) if key.isdigit() and int(key) < length else None

    return position


class _Reactable:
    """Reactions and reaction groups of a comment or an issue."""

    _store: Store
    _reaction_prefix: str

    def _reaction_list(self) -> tuple[Reaction, ...]:
        raise NotImplementedError

    def reactions(self, info: Info, args: Args) -> Connection[Reaction]:
        """Reactions, oldest first, filtered by ``content`` server side."""
        reactions = self._reaction_list()
        content = args.get("content")
        index = {id(r): i for i, r in enumerate(reactions)}
        return paginate(
            reactions,
            args,
            lambda r: str(index[id(r)]),
            _int_position(len(reactions)),
            lambda r: ReactionNode(self._store, r, f"{self._reaction_prefix}:{index[id(r)]}"),
            keep=(lambda r: r.content == content) if content else None,
        )

    def reactionGroups(self, info: Info, args: Args) -> list[ReactionGroupNode]:
        """One group per reaction content, in GitHub's order, empty ones included."""
        reactions = self._reaction_list()
        return [
            ReactionGroupNode(self._store, content, [r for r in reactions if r.content == content], self)
            for content in REACTION_CONTENTS
        ]


class CommentNode(_Reactable):
    """An IssueComment; ``databaseId`` is the world comment id."""

    typename = "IssueComment"

    def __init__(self, store: Store, number: int, item: CommentItem) -> None:
        self._store = store
        self._number = number
        self._item = item
        self._reaction_prefix = f"c{item.id}"
        self.id = node_id("IssueComment", str(item.id))
        self.databaseId = item.id
        self.fullDatabaseId = str(item.id)  # BigInt: GitHub encodes it as a string
        self.body = item.body
        self.bodyText = item.body
        self.createdAt = iso(item.at)
        self.publishedAt = self.createdAt
        self.updatedAt = iso(item.updated_at or item.at)
        self.lastEditedAt = iso(item.updated_at) if item.updated_at else None
        self.includesCreatedEdit = item.updated_at is not None
        self.isMinimized = False
        self.minimizedReason = None
        self.url = f"{BASE}/{store.name_with_owner}/issues/{number}#issuecomment-{item.id}"
        self.resourcePath = self.url.removeprefix(BASE)

    def _reaction_list(self) -> tuple[Reaction, ...]:
        return self._item.reactions

    @property
    def author(self) -> ActorNode | None:
        """The author; null for a deleted account."""
        return actor(self._store, self._item.author)

    @property
    def authorAssociation(self) -> str:
        """OWNER, a listed association, COLLABORATOR for listed permissions, else NONE."""
        return self._store.association(self._item.author)

    @property
    def issue(self) -> IssueNode:
        """The issue (or pull request) commented on."""
        return IssueNode(self._store, self._number)

    @property
    def pullRequest(self) -> IssueNode | None:
        """The pull request commented on, if it is one."""
        return IssueNode(self._store, self._number) if self._store.is_pull(self._number) else None

    def viewerDidAuthor(self, info: Info, args: Args) -> bool:
        """Whether the viewer wrote it."""
        return (self._item.author or "").lower() == context(info).viewer.lower()

    def viewerCanUpdate(self, info: Info, args: Args) -> bool:
        """The viewer may edit its own comments."""
        return self.viewerDidAuthor(info, args)

    @property
    def repository(self) -> Any:
        """The repository."""
        from emulator.resolvers_repo import RepositoryNode

        return RepositoryNode(self._store)


class EventNode:
    """A labeled/unlabeled/closed/reopened/(un)marked-as-duplicate event."""

    def __init__(self, store: Store, number: int, index: int, item: Any) -> None:
        self._store = store
        self._number = number
        self._item = item
        self.typename = EVENT_TYPENAMES[item.type]
        self.id = node_id(self.typename, f"{number}:{index}")
        self.createdAt = iso(item.at)
        self.isCrossRepository = False
        self.url = f"{BASE}/{store.name_with_owner}/issues/{number}#event-{number}{index}"
        self.resourcePath = self.url.removeprefix(BASE)
        self.closer = None

    @property
    def actor(self) -> ActorNode | None:
        """Who did it; null for a deleted account."""
        return actor(self._store, self._item.actor)

    @property
    def label(self) -> LabelNode | None:
        """The label added or removed."""
        return LabelNode(self._store, self._item.label) if hasattr(self._item, "label") else None

    @property
    def stateReason(self) -> str | None:
        """Why it was closed (DUPLICATE included: the event's field takes no enableDuplicate)."""
        return getattr(self._item, "state_reason", None)

    @property
    def canonical(self) -> IssueNode | None:
        """The issue this one duplicates."""
        number = getattr(self._item, "canonical", None)
        return IssueNode(self._store, number) if number in self._store.items else None

    @property
    def duplicate(self) -> IssueNode:
        """The issue marked as a duplicate."""
        return IssueNode(self._store, self._number)

    @property
    def labelable(self) -> IssueNode:
        """The issue labeled."""
        return IssueNode(self._store, self._number)

    @property
    def closable(self) -> IssueNode:
        """The issue closed."""
        return IssueNode(self._store, self._number)


def timeline_node(store: Store, number: int, index: int, item: Any) -> Any:
    """The GraphQL object of one timeline item."""
    if isinstance(item, CommentItem):
        return CommentNode(store, number, item)
    return EventNode(store, number, index, item)


class IssueNode(_Reactable):
    """An Issue or a PullRequest by number."""

    def __init__(self, store: Store, number: int) -> None:
        self._store = store
        self._issue = store.items[number]
        self._derived = store.derived(number)
        self._reaction_prefix = f"i{number}"
        pull = store.is_pull(number)
        self.typename = "PullRequest" if pull else "Issue"
        issue = self._issue
        self.id = node_id(self.typename, str(number))
        self.number = number
        self.databaseId = number
        self.title = issue.title
        self.body = issue.body
        self.bodyText = issue.body
        self.createdAt = iso(issue.created_at)
        self.publishedAt = self.createdAt
        self.updatedAt = iso(self._derived.updated_at)
        self.closed = self._derived.closed
        self.closedAt = iso(self._derived.closed_at) if self._derived.closed_at else None
        self.locked = False
        self.activeLockReason = None
        self.url = f"{BASE}/{store.name_with_owner}/{'pull' if pull else 'issues'}/{number}"
        self.permalink = self.url
        self.resourcePath = self.url.removeprefix(BASE)
        if pull:
            self.baseRefName = issue.base or store.default_branch
            self.headRefName = issue.head or ""
            self.merged = issue.merged
            self.mergedAt = None
            self.isDraft = issue.draft
            self.isCrossRepository = store.is_fork_pull(number)
            fork = issue.head_repository if self.isCrossRepository else None
            # A fork's branches are not in the world: its head commit is unknown.
            self.headRefOid = "0" * 40 if fork else store.branches.get(self.headRefName, "0" * 40)
            self.baseRefOid = store.branches.get(self.baseRefName, "0" * 40)
            self.state = "MERGED" if issue.merged else ("CLOSED" if self._derived.closed else "OPEN")
        else:
            self.state = "CLOSED" if self._derived.closed else "OPEN"

    def _reaction_list(self) -> tuple[Reaction, ...]:
        return self._issue.reactions

    @property
    def author(self) -> ActorNode | None:
        """The author; null for a deleted account."""
        return actor(self._store, self._issue.author)

    @property
    def authorAssociation(self) -> str:
        """The author's association with the repository."""
        return self._store.association(self._issue.author)

    @property
    def headRepository(self) -> Any:
        """The repository of the head branch: this one, or the fork named by ``head_repository``."""
        from emulator.resolvers_repo import ForkNode, RepositoryNode

        if not self._store.is_pull(self.number):
            return None
        fork = self._issue.head_repository
        if fork is not None and self._store.is_fork_pull(self.number):
            return ForkNode(self._store, fork)
        return RepositoryNode(self._store)

    def stateReason(self, info: Info, args: Args) -> str | None:
        """COMPLETED, NOT_PLANNED, REOPENED, or DUPLICATE only with ``enableDuplicate: true``."""
        reason = self._derived.state_reason
        if reason == "DUPLICATE" and not args.get("enableDuplicate"):
            return "COMPLETED"
        return reason

    @property
    def repository(self) -> Any:
        """The repository."""
        from emulator.resolvers_repo import RepositoryNode

        return RepositoryNode(self._store)

    def labels(self, info: Info, args: Args) -> Connection[str]:
        """Labels now on the issue, in the order they were applied."""
        names = list(self._derived.labels)
        position = {name: i for i, name in enumerate(names)}
        return paginate(names, args, lambda n: n, position.get, lambda n: LabelNode(self._store, n))

    def comments(self, info: Info, args: Args) -> Connection[CommentItem]:
        """Comments, oldest first; cursors are comment ids."""
        comments = [item for item in self._issue.timeline if isinstance(item, CommentItem)]
        position = {str(item.id): k for k, item in enumerate(comments)}
        return paginate(
            comments,
            args,
            lambda item: str(item.id),
            position.get,
            lambda item: CommentNode(self._store, self.number, item),
        )

    def timelineItems(self, info: Info, args: Args) -> Connection[int]:
        """Timeline items in time order, filtered by ``itemTypes`` and ``since`` (creation time)."""
        timeline = self._issue.timeline
        types = args.get("itemTypes")
        wanted = None if types is None else {ITEM_TYPES[t] for t in types if t in ITEM_TYPES}
        since = _parse_time(args.get("since"))
        skip = args.get("skip") or 0

        def keep(index: int) -> bool:
            item = timeline[index]
            return (wanted is None or item.type in wanted) and (since is None or item.at >= since)

        indices = list(range(len(timeline)))
        filtered = wanted is not None or since is not None
        positions: Any = lambda key: int(key) if key.isdigit() and int(key) < len(timeline) else None  # noqa: E731
        if skip:
            indices = [i for i in indices if keep(i)][skip:]
            positions = {str(i): k for k, i in enumerate(indices)}.get
            filtered = False
        return paginate(
            indices,
            args,
            str,
            positions,
            lambda i: timeline_node(self._store, self.number, i, timeline[i]),
            keep=keep if filtered else None,
            updated_at=self.updatedAt,
        )

    def viewerDidAuthor(self, info: Info, args: Args) -> bool:
        """Whether the viewer opened it."""
        return (self._issue.author or "").lower() == context(info).viewer.lower()
