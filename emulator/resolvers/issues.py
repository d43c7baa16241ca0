"""Issues, pull requests, their comments, timeline events, labels, and a pull request's fork."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from emulator.ids import EVENT_TYPENAMES, node_id
from emulator.pagination import Connection, paginate
from emulator.resolvers.actors import ActorNode, actor
from emulator.resolvers.context import Args, Info, context
from emulator.resolvers.reactions import Reactable
from emulator.resolvers.registry import NODES
from emulator.resolvers.reviews import reviews as review_list
from emulator.resolvers.reviews import threads as review_threads
from emulator.store import Store
from emulator.world import CommentItem, Reaction, iso

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


def parse_time(value: Any) -> datetime | None:
    """A DateTime argument as a datetime (None stays None)."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value).replace("Z", "+00:00"))


def repository(store: Store) -> Any:
    """The world's repository, built by the class the registry knows for it."""
    return NODES.build(store, "Repository", store.name_with_owner)


@NODES.register("Label")
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

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> LabelNode | None:
        """A label the repository knows."""
        return cls(store, key) if key in store.label_names() else None


@NODES.register("IssueComment")
class CommentNode(Reactable):
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
        minimized = getattr(item, "minimized", None)  # an issue comment's (a review comment has none)
        self.isMinimized = minimized is not None
        self.minimizedReason = minimized
        self.url = f"{BASE}/{store.name_with_owner}/issues/{number}#issuecomment-{item.id}"
        self.resourcePath = self.url.removeprefix(BASE)

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> CommentNode | None:
        """A comment by its id."""
        found = store.comment(int(key)) if key.isdigit() else None
        return cls(store, found[0], found[1]) if found else None

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
        return repository(self._store)


@NODES.register(*EVENT_TYPENAMES.values())
class EventNode:
    """A labeled/unlabeled/closed/reopened/(un)marked-as-duplicate event; world key ``number:index``."""

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

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> EventNode | None:
        """The event at a timeline index, when it is an event of this type."""
        number_text, _, index_text = key.partition(":")
        if not (number_text.isdigit() and index_text.isdigit() and int(number_text) in store.items):
            return None
        timeline = store.items[int(number_text)].timeline
        index = int(index_text)
        if index >= len(timeline) or isinstance(timeline[index], CommentItem):
            return None
        item = timeline[index]
        return cls(store, int(number_text), index, item) if EVENT_TYPENAMES[item.type] == typename else None

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
        """Why it was closed; DUPLICATE by default, as GitHub's current schema answers it."""
        return getattr(self._item, "state_reason", None)

    @property
    def duplicateOf(self) -> IssueNode | None:
        """The issue a close as a duplicate names (GitHub's schema since 2025-05); null otherwise."""
        number = getattr(self._item, "duplicate_of", None)
        if getattr(self._item, "state_reason", None) != "DUPLICATE":
            return None
        return IssueNode(self._store, number) if number in self._store.items else None

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


@NODES.register("Issue", "PullRequest")
class IssueNode(Reactable):
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
        self.locked = issue.locked
        self.activeLockReason = "RESOLVED" if issue.locked else None
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

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> IssueNode | None:
        """An issue or a pull request by number, when it is of that type."""
        number = int(key) if key.isdigit() else -1
        if number in store.items and store.is_pull(number) == (typename == "PullRequest"):
            return cls(store, number)
        return None

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
        if not self._store.is_pull(self.number):
            return None
        fork = self._issue.head_repository
        if fork is not None and self._store.is_fork_pull(self.number):
            return ForkNode(self._store, fork)
        return repository(self._store)

    @property
    def stateReason(self) -> str | None:
        """COMPLETED, NOT_PLANNED, REOPENED or DUPLICATE: GitHub's current schema returns DUPLICATE
        by default (the deprecated `enableDuplicate` argument, still accepted, changes nothing)."""
        return self._derived.state_reason

    @property
    def duplicateOf(self) -> IssueNode | None:
        """The issue this one duplicates: the last close as a duplicate naming one, or the last mark
        not unmarked since (docs/world-format.md, "Duplicate of")."""
        number = self._derived.duplicate_of
        if number is None or number not in self._store.items or self._store.is_pull(number):
            return None
        return IssueNode(self._store, number)

    @property
    def repository(self) -> Any:
        """The repository."""
        return repository(self._store)

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
        since = parse_time(args.get("since"))
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

    def reviews(self, info: Info, args: Args) -> Connection[Any] | None:
        """A pull request's submitted reviews (emulator/resolvers/reviews.py)."""
        return review_list(self._store, self.number, args) if self._store.is_pull(self.number) else None

    def reviewThreads(self, info: Info, args: Args) -> Connection[Any]:
        """A pull request's review threads, in the order they were started."""
        return review_threads(self._store, self.number, args)

    def viewerDidAuthor(self, info: Info, args: Args) -> bool:
        """Whether the viewer opened it."""
        return (self._issue.author or "").lower() == context(info).viewer.lower()


class ForkNode:
    """Another repository, known only by name: the head repository of a pull request from a fork."""

    typename = "Repository"

    def __init__(self, store: Store, name_with_owner: str) -> None:
        owner, name = name_with_owner.split("/", 1)
        self.id = node_id("Repository", name_with_owner)
        self.name = name
        self.nameWithOwner = name_with_owner
        self.url = f"{BASE}/{name_with_owner}"
        self.resourcePath = f"/{name_with_owner}"
        self.isPrivate = False
        self.isArchived = False
        self.isFork = True
        self.owner = ActorNode(store, owner, "User")
