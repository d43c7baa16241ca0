"""The Query root and the Repository: issues, labels, collaborators, files, search, nodes."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from graphql import GraphQLError, GraphQLResolveInfo

from emulator.ids import node_id, parse_node_id
from emulator.pagination import Connection, paginate
from emulator.resolvers import context, github_error
from emulator.resolvers_git import BlobNode, CommitNode, RefNode, object_node, ref_node
from emulator.resolvers_issue import (
    ActorNode,
    CommentNode,
    EventNode,
    IssueNode,
    LabelNode,
    ReactionNode,
    _parse_time,
)
from emulator.store import Store
from emulator.world import CommentItem, iso

Args = dict[str, Any]
Info = GraphQLResolveInfo[Any]
BASE = "https://github.com"
SEARCH_LIMIT = 1000


class RepositoryNode:
    """The world's one repository."""

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
        self.viewerPermission = None
        self.owner = ActorNode(
            store, store.owner, "Organization" if store.actor_type(store.owner) == "Organization" else "User"
        )

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

        ``login`` is an exact match; ``query`` is GitHub's fuzzy match (a prefix here).
        """
        store = self._store
        if store.file.collaborators_via_graphql == "forbidden":
            raise github_error("Must have push access to view repository collaborators.", "FORBIDDEN")
        logins = sorted(store.file.permissions, key=str.lower)
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
            edge_extra=lambda n: {"permission": store.file.permissions[n]},
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
    since = _parse_time(filters.get("since"))
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


_QUALIFIER = re.compile(r'(-?)(\w+):("[^"]*"|\S+)')


def search_numbers(store: Store, query: str) -> list[int] | None:
    """Issue/PR numbers a search query matches, in its sort; None when ``repo:`` names another repository.

    Supports repo:, is:issue/pr/open/closed, type:, state:, author:, commenter:, label:,
    updated:/created: with >=, >, <=, < or A..B, sort:updated/created-asc/desc, and words.
    """
    tests: list[Any] = []
    sort = ("updated", "desc")
    words = _QUALIFIER.sub(" ", query).split()
    for negate, raw_key, raw in _QUALIFIER.findall(query):
        value = raw.strip('"')
        key = raw_key.lower()
        test: Any = None
        if key == "repo":
            if value.lower() != store.name_with_owner.lower():
                return None
        elif key in ("is", "type", "state"):
            test = _is_test(store, value.lower())
        elif key == "author":
            test = lambda n, v=value: (store.items[n].author or "").lower().removesuffix("[bot]") == _login(v)  # noqa: E731
        elif key == "commenter":
            test = lambda n, v=value: any(  # noqa: E731
                isinstance(i, CommentItem) and (i.author or "").lower().removesuffix("[bot]") == _login(v)
                for i in store.items[n].timeline
            )
        elif key == "label":
            test = lambda n, v=value: v.lower() in {x.lower() for x in store.derived(n).labels}  # noqa: E731
        elif key in ("updated", "created"):
            test = _date_test(store, key, value)
        elif key == "sort":
            field, _, direction = value.lower().partition("-")
            sort = (field, direction or "desc")
        if test is not None:
            tests.append((lambda n, t=test: not t(n)) if negate else test)
    for word in words:
        tests.append(
            lambda n, w=word.lower(): w in store.items[n].title.lower() or w in store.items[n].body.lower()  # noqa: B008
        )
    numbers = [n for n in store.items if all(test(n) for test in tests)]
    if sort[0] == "created":
        numbers.sort(key=lambda n: (store.items[n].created_at, n), reverse=sort[1] == "desc")
    elif sort[0] == "comments":
        numbers.sort(key=lambda n: (store.derived(n).comment_count, n), reverse=sort[1] == "desc")
    else:
        numbers.sort(key=lambda n: (store.derived(n).updated_at, n), reverse=sort[1] == "desc")
    return numbers[:SEARCH_LIMIT]


def _login(value: str) -> str:
    return value.lower().removeprefix("app/").removesuffix("[bot]")


def _is_test(store: Store, value: str) -> Any:
    return {
        "issue": lambda n: not store.is_pull(n),
        "pr": store.is_pull,
        "open": lambda n: not store.derived(n).closed,
        "closed": lambda n: store.derived(n).closed,
    }.get(value)


def _date_test(store: Store, key: str, value: str) -> Any:
    """A test of ``updated:``/``created:`` qualifiers; a bare date covers its whole day."""

    def moment(n: int) -> datetime:
        return store.derived(n).updated_at if key == "updated" else store.items[n].created_at

    def start(text: str) -> datetime:
        moment_ = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return moment_ if moment_.tzinfo else moment_.replace(tzinfo=UTC)

    def end(text: str) -> datetime:
        return start(text) + (timedelta(days=1) if "T" not in text else timedelta(0))

    if ".." in value:
        low, high = value.split("..", 1)
        low_at = None if low in ("", "*") else start(low)
        high_at = None if high in ("", "*") else end(high)
        return lambda n: (
            (low_at is None or moment(n) >= low_at)
            and (high_at is None or moment(n) < high_at or ("T" in high and moment(n) == high_at))
        )
    for op in (">=", "<=", ">", "<"):
        if value.startswith(op):
            text = value[len(op) :]
            if op == ">=":
                return lambda n: moment(n) >= start(text)
            if op == ">":
                return lambda n: moment(n) >= end(text) if "T" not in text else moment(n) > start(text)
            if op == "<=":
                return lambda n: moment(n) < end(text) if "T" not in text else moment(n) <= start(text)
            return lambda n: moment(n) < start(text)
    return lambda n: start(value) <= moment(n) < end(value)


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
        found = find_node(self._store, args["id"])
        if found is None:
            raise github_error(
                f"Could not resolve to a node with the global id of '{args['id']}'", "NOT_FOUND"
            )
        return found

    def nodes(self, info: Info, args: Args) -> list[Any]:
        """Objects by global ids; null (with an error) for each unknown id."""
        out: list[Any] = []
        for value in args["ids"]:
            found = find_node(self._store, value)
            out.append(
                found
                if found is not None
                else github_error(f"Could not resolve to a node with the global id of '{value}'", "NOT_FOUND")
            )
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


def find_node(store: Store, value: str) -> Any:
    """The object of a global id, or None."""
    parsed = parse_node_id(value)
    if parsed is None:
        return None
    typename, key = parsed
    if typename in ("Issue", "PullRequest"):
        number = int(key) if key.isdigit() else -1
        if number in store.items and store.is_pull(number) == (typename == "PullRequest"):
            return IssueNode(store, number)
        return None
    if typename == "IssueComment":
        found = store.comment(int(key)) if key.isdigit() else None
        return CommentNode(store, found[0], found[1]) if found else None
    if typename in ("User", "Bot", "Mannequin", "Organization"):
        return ActorNode(store, key, typename)
    if typename == "Label":
        return LabelNode(store, key) if key in store.label_names() else None
    if typename == "Repository":
        return RepositoryNode(store) if key == store.name_with_owner else None
    if typename == "Ref":
        return ref_node(store, key)
    if typename == "Commit":
        commit = store.commits.get(key)
        return CommitNode(store, commit) if commit else None
    if typename == "Reaction":
        return _reaction(store, key)
    if typename in {"Blob", "Tree"}:
        return None
    number_text, _, index_text = key.partition(":")
    if number_text.isdigit() and index_text.isdigit() and int(number_text) in store.items:
        timeline = store.items[int(number_text)].timeline
        index = int(index_text)
        if index < len(timeline) and not isinstance(timeline[index], CommentItem):
            return EventNode(store, int(number_text), index, timeline[index])
    return None


def _reaction(store: Store, key: str) -> ReactionNode | None:
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
    return ReactionNode(store, reactions[index], key) if index < len(reactions) else None


def unknown(value: Any) -> GraphQLError:
    """The NOT_FOUND error of an id that names nothing."""
    return github_error(f"Could not resolve to a node with the global id of '{value}'", "NOT_FOUND")


__all__ = ["BlobNode", "ForkNode", "QueryRoot", "RepositoryNode", "find_node", "unknown"]
