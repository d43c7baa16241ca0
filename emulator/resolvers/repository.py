"""The Repository: its issues and pull requests, labels, collaborators, branches and files."""

from __future__ import annotations

from typing import Any

from emulator.access import COLLABORATORS_REFUSED
from emulator.ids import node_id
from emulator.pagination import Connection, paginate
from emulator.resolvers.actors import ActorNode
from emulator.resolvers.context import Args, Info, context, github_error
from emulator.resolvers.git import RefNode, object_node, ref_node
from emulator.resolvers.issues import IssueNode, LabelNode, parse_time
from emulator.resolvers.registry import NODES
from emulator.store import Store

BASE = "https://github.com"


@NODES.register("Repository")
class RepositoryNode:
    """The world's one repository (another repository's id names nothing here)."""

    typename = "Repository"

    def __init__(self, store: Store) -> None:
        self._store = store
        self.id = node_id("Repository", store.name_with_owner)
        self.name = store.name
        self.nameWithOwner = store.name_with_owner
        self.url = f"{BASE}/{store.name_with_owner}"
        self.resourcePath = f"/{store.name_with_owner}"
        self.isPrivate = False
        self.isArchived = False
        self.isFork = False
        self.hasIssuesEnabled = True
        self.owner = ActorNode(
            store, store.owner, "Organization" if store.actor_type(store.owner) == "Organization" else "User"
        )

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> RepositoryNode | None:
        """The world's repository by ``owner/name``."""
        return cls(store) if key == store.name_with_owner else None

    def issues(self, info: Info, args: Args) -> Connection[int]:
        """Issues (never pull requests) in ``orderBy`` (default CREATED_AT ASC), filtered."""
        return _numbers(self._store, "issue", args)

    def pullRequests(self, info: Info, args: Args) -> Connection[int]:
        """Pull requests, like issues."""
        return _numbers(self._store, "pull", args)

    def issue(self, info: Info, args: Args) -> IssueNode:
        """An issue by number; NOT_FOUND for a pull request or a missing number."""
        number = args["number"]
        if number not in self._store.items or self._store.is_pull(number):
            raise github_error(f"Could not resolve to an Issue with the number of {number}.", "NOT_FOUND")
        return IssueNode(self._store, number)

    def pullRequest(self, info: Info, args: Args) -> IssueNode:
        """A pull request by number."""
        number = args["number"]
        if not self._store.is_pull(number):
            raise github_error(
                f"Could not resolve to a PullRequest with the number of {number}.", "NOT_FOUND"
            )
        return IssueNode(self._store, number)

    def issueOrPullRequest(self, info: Info, args: Args) -> IssueNode:
        """An issue or pull request by number."""
        number = args["number"]
        if number not in self._store.items:
            raise github_error(
                f"Could not resolve to an issue or pull request with the number of {number}.", "NOT_FOUND"
            )
        return IssueNode(self._store, number)

    def viewerPermission(self, info: Info, args: Args) -> str | None:
        """The token's own role here, every grant counted; null for an app's token (GitHub's schema:
        "Will return null if authenticated as an GitHub App"), READ for anyone else on a public one."""
        login = context(info).viewer
        if self._store.actor_type(login) == "Bot":
            return None
        return self._store.access.effective(login) or "READ"

    def labels(self, info: Info, args: Args) -> Connection[str]:
        """Every label of the repository by name; ``query`` matches a part of the name."""
        names = self._store.label_names()
        query = (args.get("query") or "").lower()
        position = {name: i for i, name in enumerate(names)}
        return paginate(
            names,
            args,
            lambda n: n,
            position.get,
            lambda n: LabelNode(self._store, n),
            keep=(lambda n: query in n.lower()) if query else None,
        )

    def label(self, info: Info, args: Args) -> LabelNode | None:
        """A label by name (case-insensitive)."""
        for name in self._store.label_names():
            if name.lower() == args["name"].lower():
                return LabelNode(self._store, name)
        return None

    def collaborators(self, info: Info, args: Args) -> Connection[str]:
        """Listed collaborators with their permission; FORBIDDEN when the world says so.

        Who is listed: emulator/access.py. ``login`` is an exact match; ``query`` is GitHub's fuzzy match (a prefix here).
        """
        store = self._store
        if store.file.collaborators_via_graphql == "forbidden":
            raise github_error(COLLABORATORS_REFUSED, "FORBIDDEN")
        listed = dict(store.access.listed())
        logins = list(listed)
        login = (args.get("login") or "").lower()
        query = (args.get("query") or "").lower()

        def keep(name: str) -> bool:
            return (not login or name.lower() == login) and (not query or name.lower().startswith(query))

        position = {name: i for i, name in enumerate(logins)}
        return paginate(
            logins,
            args,
            lambda n: n,
            position.get,
            lambda n: ActorNode(store, n, "User"),
            keep=keep if login or query else None,
            edge_extra=lambda n: {"permission": listed[n]},
        )

    @property
    def defaultBranchRef(self) -> RefNode | None:
        """The default branch."""
        return ref_node(self._store, self._store.default_branch)

    def ref(self, info: Info, args: Args) -> RefNode | None:
        """A branch by qualified name."""
        return ref_node(self._store, args["qualifiedName"])

    def object(self, info: Info, args: Args) -> Any:
        """A file as ``REF:PATH`` (REF a branch or HEAD) or a commit by oid; null when missing."""
        return object_node(self._store, args.get("expression"), args.get("oid"))


def _numbers(store: Store, kind: str, args: Args) -> Connection[int]:
    order = args.get("orderBy") or {"field": "CREATED_AT", "direction": "ASC"}
    ordered = store.order(kind, order["field"], order["direction"])
    filters = args.get("filterBy") or {}
    states = args.get("states") or filters.get("states")
    labels = args.get("labels") or filters.get("labels")
    since = parse_time(filters.get("since"))
    author = filters.get("createdBy")
    head_ref = args.get("headRefName")
    base_ref = args.get("baseRefName")

    def keep(number: int) -> bool:
        derived = store.derived(number)
        if states:
            state = "MERGED" if store.items[number].merged else ("CLOSED" if derived.closed else "OPEN")
            if state not in states:
                return False
        if since is not None and derived.updated_at < since:
            return False
        if labels and not set(labels) & set(derived.labels):
            return False
        item = store.items[number]
        if head_ref is not None and (item.head or "") != head_ref:
            return False
        if base_ref is not None and (item.base or store.default_branch) != base_ref:
            return False
        return not (author and (item.author or "").lower() != author.lower())

    filtered = bool(states or since or labels or author or head_ref is not None or base_ref is not None)
    return paginate(
        ordered.numbers,
        args,
        str,
        lambda key: ordered.position.get(int(key)) if key.isdigit() else None,
        lambda n: IssueNode(store, n),
        keep=keep if filtered else None,
    )
