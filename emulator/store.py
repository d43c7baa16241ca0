"""The world as the server holds it: indexed, derived state cached, changed by mutations.

Indexes (issues by updatedAt, createdAt, comment count; all comments by creation) are
built on first use and dropped on every change of an issue, so reading page 1 of a
100,000-issue world never scans it twice. Branches and commits are the git side's
(``emulator/git.py``), which ``Store.git`` holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from emulator.access import WORKFLOW_ACCOUNT, Access
from emulator.git import Commit, Git
from emulator.refusals import MutationError
from emulator.world import (
    REACTION_CONTENTS,
    ClosedItem,
    CommentItem,
    Derived,
    Issue,
    LabelInfo,
    LabelItem,
    Reaction,
    ReopenedItem,
    WorldError,
    WorldFile,
    derive,
    load_world,
    parse_world,
)

WRITE_PERMISSIONS = ("ADMIN", "MAINTAIN", "WRITE")
FIRST_NEW_COMMENT_ID = 2_900_000_001  # the least id of a comment made through a mutation


@dataclass
class Order:
    """Issue numbers in one order, with each number's position (for cursors)."""

    numbers: list[int]
    position: dict[int, int] = field(default_factory=dict)


class Store:
    """Mutable world state for one server; every reader goes through its methods."""

    def __init__(self, world: WorldFile) -> None:
        self.file = world
        self.owner = world.repository.owner
        self.name = world.repository.name
        self.default_branch = world.repository.default_branch
        self.permissions = {login.lower(): perm for login, perm in world.permissions.items()}
        self.access = Access(world)
        self.items: dict[int, Issue] = {}
        self.pull_numbers: set[int] = set()
        for issue in world.issues:
            self.items[issue.number] = issue
        for pull in world.pull_requests:
            self.items[pull.number] = pull
            self.pull_numbers.add(pull.number)
        self.git = Git(self.default_branch, world.files, world.heads, world.commits)
        self.label_info = {label.name: label for label in world.labels}
        self._derived: dict[int, Derived] = {}
        self._orders: dict[tuple[str, str, str], Order] = {}
        self._comments: dict[int, tuple[int, int]] | None = None
        self._comments_by_created: list[tuple[int, int]] | None = None

    # -- reading -------------------------------------------------------------------------

    @property
    def commits(self) -> dict[str, Commit]:
        """Every commit by oid (the git side's, emulator/git.py)."""
        return self.git.commits

    @property
    def branches(self) -> dict[str, str]:
        """Branch name -> head commit oid (the git side's, emulator/git.py)."""
        return self.git.branches

    @property
    def name_with_owner(self) -> str:
        """``owner/name``."""
        return f"{self.owner}/{self.name}"

    def is_repo(self, owner: str, name: str) -> bool:
        """Whether owner/name is this world's repository (case-insensitive, as GitHub)."""
        return owner.lower() == self.owner.lower() and name.lower() == self.name.lower()

    def actor_type(self, login: str) -> str:
        """User, Bot, Mannequin or Organization (emulator/access.py)."""
        return self.access.actor_type(login)

    def permission(self, login: str) -> str | None:
        """The listed permission of a login, or None when it is no collaborator."""
        return self.access.listed_permission(login)

    def account_exists(self, login: str) -> bool:
        """Whether the login is an account of this world (REST answers 404 for any other)."""
        viewers = [self.file.viewer or WORKFLOW_ACCOUNT, *self.file.tokens.values()]
        return self.access.exists(login, self.items.values(), viewers)

    def association(self, login: str | None) -> str:
        """authorAssociation (emulator/access.py)."""
        return self.access.association(login)

    def is_fork_pull(self, number: int) -> bool:
        """Whether a pull request's head is in another repository (a fork)."""
        other = self.items[number].head_repository
        return other is not None and other.lower() != self.name_with_owner.lower()

    def viewer_login(self, token: str) -> str:
        """The login a token acts as: ``tokens``, else ``viewer``, else (no viewer named) the default
        token's, a workflow's GITHUB_TOKEN's: the Bot ``github-actions`` (docs/emulator.md)."""
        return self.file.tokens.get(token) or self.file.viewer or WORKFLOW_ACCOUNT

    def derived(self, number: int) -> Derived:
        """Derived state of an issue or pull request (cached until the next change)."""
        found = self._derived.get(number)
        if found is None:
            found = self._derived[number] = derive(self.items[number])
        return found

    def is_pull(self, number: int) -> bool:
        """Whether a number is a pull request."""
        return number in self.pull_numbers

    def order(self, kind: str, field_name: str, direction: str) -> Order:
        """Numbers of issues (kind ``issue``) or pull requests (``pull``) in a GraphQL IssueOrder."""
        key = (kind, field_name, direction)
        found = self._orders.get(key)
        if found is not None:
            return found
        want_pull = kind == "pull"
        numbers = [n for n in self.items if (n in self.pull_numbers) == want_pull]
        sort_key: Callable[[int], Any]
        if field_name == "UPDATED_AT":
            sort_key = lambda n: (self.derived(n).updated_at, n)  # noqa: E731
        elif field_name == "COMMENTS":
            sort_key = lambda n: (self.derived(n).comment_count, n)  # noqa: E731
        else:
            sort_key = lambda n: (self.items[n].created_at, n)  # noqa: E731
        numbers.sort(key=sort_key, reverse=direction == "DESC")
        found = Order(numbers, {n: i for i, n in enumerate(numbers)})
        self._orders[key] = found
        return found

    def comment_location(self, comment_id: int) -> tuple[int, int] | None:
        """``(number, timeline index)`` of a comment id."""
        if self._comments is None:
            self._comments = {}
            for number, issue in self.items.items():
                for index, item in enumerate(issue.timeline):
                    if isinstance(item, CommentItem):
                        self._comments[item.id] = (number, index)
        return self._comments.get(comment_id)

    def comment(self, comment_id: int) -> tuple[int, CommentItem] | None:
        """``(issue number, comment)`` of a comment id."""
        where = self.comment_location(comment_id)
        if where is None:
            return None
        item = self.items[where[0]].timeline[where[1]]
        assert isinstance(item, CommentItem)
        return where[0], item

    def review_location(self, review_id: int) -> tuple[int, int] | None:
        """``(pull request number, review index)`` of a review id."""
        for number in sorted(self.pull_numbers):
            for index, review in enumerate(self.items[number].reviews):
                if review.id == review_id:
                    return number, index
        return None

    def review_comment_location(self, comment_id: int) -> tuple[int, int, int, int] | None:
        """``(pull request number, review index, thread index, comment index)`` of a review comment id."""
        for number in sorted(self.pull_numbers):
            for r, review in enumerate(self.items[number].reviews):
                for t, thread in enumerate(review.threads):
                    for c, comment in enumerate(thread.comments):
                        if comment.id == comment_id:
                            return number, r, t, c
        return None

    def react_in_review(self, review_id: int, comment_id: int | None, user: str, content: str) -> Reaction:
        """Add a reaction to a review (``comment_id`` None) or one of its comments; idempotent per user."""
        if content not in REACTION_CONTENTS:
            raise MutationError(f"Unknown reaction content {content}")
        where = self.review_location(review_id)
        assert where is not None
        number, r = where
        pull = self.items[number]
        review = pull.reviews[r]
        spot = self.review_comment_location(comment_id) if comment_id is not None else None
        target: Any = review if spot is None else review.threads[spot[2]].comments[spot[3]]
        existing: tuple[Reaction, ...] = target.reactions
        for reaction in existing:
            if reaction.content == content and (reaction.user or "").lower() == user.lower():
                return reaction
        new = Reaction(user=user, content=content, at=self.now())
        target = target.model_copy(update={"reactions": (*existing, new)})
        if spot is None:
            review = target
        else:
            thread = review.threads[spot[2]]
            comments = list(thread.comments)
            comments[spot[3]] = target
            threads = list(review.threads)
            threads[spot[2]] = thread.model_copy(update={"comments": tuple(comments)})
            review = review.model_copy(update={"threads": tuple(threads)})
        reviews = list(pull.reviews)
        reviews[r] = review
        self.items[number] = pull.model_copy(update={"reviews": tuple(reviews)})
        self._changed(number)
        return new

    def comments_by_created(self) -> list[tuple[int, int]]:
        """Every comment of the repository as ``(number, index)``, oldest first (ties by id)."""
        if self._comments_by_created is None:
            rows: list[tuple[datetime, int, int, int]] = []
            for number, issue in self.items.items():
                for index, item in enumerate(issue.timeline):
                    if isinstance(item, CommentItem):
                        rows.append((item.at, item.id, number, index))
            rows.sort()
            self._comments_by_created = [(number, index) for _, _, number, index in rows]
        return self._comments_by_created

    def label_names(self) -> list[str]:
        """Every label the repository knows: the ``labels`` key and every label ever applied."""
        names = dict.fromkeys(self.label_info)
        for issue in self.items.values():
            for item in issue.timeline:
                if isinstance(item, LabelItem):
                    names.setdefault(item.label, None)
        return sorted(names, key=str.lower)

    def label(self, name: str) -> LabelInfo:
        """A label's looks (defaults for labels only seen in events)."""
        return self.label_info.get(name) or LabelInfo(name=name)

    def now(self, after: datetime | None = None) -> datetime:
        """The time of a new event: the wall clock (or ``now`` key), and later than ``after``."""
        moment = self.file.now or datetime.now(UTC).replace(microsecond=0)
        if after is not None and moment <= after:
            moment = after + timedelta(seconds=1)
        return moment

    def set_now(self, moment: datetime | None) -> None:
        """The time new events get from now on (the world's ``now`` key; None: the wall clock).

        A simulation moves it between its steps, as days pass.
        """
        self.file = self.file.model_copy(update={"now": moment})

    # -- changing ------------------------------------------------------------------------

    def _changed(self, number: int) -> None:
        self._derived.pop(number, None)
        self._orders.clear()
        self._comments = None
        self._comments_by_created = None

    def _last_at(self, number: int) -> datetime:
        return self.derived(number).updated_at

    def add_comment(self, number: int, author: str, body: str) -> CommentItem:
        """Append a comment by ``author``; returns it."""
        issue = self.items[number]
        self.comment_location(0)
        assert self._comments is not None
        # GitHub's comment ids are above 2^31 (past GraphQL's Int): new ones are too.
        new_id = max(max(self._comments, default=0), FIRST_NEW_COMMENT_ID - 1) + 1
        item = CommentItem(
            type="comment", id=new_id, author=author, at=self.now(self._last_at(number)), body=body
        )
        self.items[number] = issue.model_copy(update={"timeline": (*issue.timeline, item)})
        self._changed(number)
        return item

    def create_issue(self, author: str, title: str, body: str) -> int:
        """Open an issue by ``author``; returns its number (the next one of issues and pull requests)."""
        number = max(self.items, default=0) + 1
        self.items[number] = Issue(
            number=number, title=title, body=body, author=author, created_at=self.now()
        )
        self._changed(number)
        return number

    def change_labels(self, number: int, actor: str, names: list[str], *, added: bool) -> None:
        """Apply (or take off) labels as ``actor``: one event per label that changes, none for the others."""
        issue = self.items[number]
        present = set(self.derived(number).labels)
        timeline = list(issue.timeline)
        for name in names:
            if (name in present) == added:
                continue  # already on (or already off): GitHub records no event
            at = self.now(timeline[-1].at if timeline else issue.created_at)
            kind: Literal["labeled", "unlabeled"] = "labeled" if added else "unlabeled"
            timeline.append(LabelItem(type=kind, actor=actor, label=name, at=at))
            present.symmetric_difference_update({name})
        self.items[number] = issue.model_copy(update={"timeline": tuple(timeline)})
        self._changed(number)

    def update_comment(self, comment_id: int, body: str) -> CommentItem:
        """Replace a comment's body; its ``updated_at`` moves."""
        where = self.comment_location(comment_id)
        if where is None:
            raise MutationError(
                f"Could not resolve to a node with the global id of '{comment_id}'", "NOT_FOUND"
            )
        number, index = where
        issue = self.items[number]
        old = issue.timeline[index]
        assert isinstance(old, CommentItem)
        new = old.model_copy(update={"body": body, "updated_at": self.now(self._last_at(number))})
        timeline = list(issue.timeline)
        timeline[index] = new
        self.items[number] = issue.model_copy(update={"timeline": tuple(timeline)})
        self._changed(number)
        return new

    def add_reaction(self, comment_id: int | None, number: int, user: str, content: str) -> Reaction:
        """Add a reaction to a comment (or, with ``comment_id`` None, to the issue); idempotent per user."""
        if content not in REACTION_CONTENTS:
            raise MutationError(f"Unknown reaction content {content}")
        issue = self.items[number]
        if comment_id is None:
            existing = issue.reactions
        else:
            found = self.comment(comment_id)
            assert found is not None
            existing = found[1].reactions
        for reaction in existing:
            if reaction.content == content and (reaction.user or "").lower() == user.lower():
                return reaction
        new = Reaction(user=user, content=content, at=self.now())
        if comment_id is None:
            self.items[number] = issue.model_copy(update={"reactions": (*existing, new)})
        else:
            where = self.comment_location(comment_id)
            assert where is not None
            timeline = list(issue.timeline)
            old = timeline[where[1]]
            assert isinstance(old, CommentItem)
            timeline[where[1]] = old.model_copy(update={"reactions": (*existing, new)})
            self.items[number] = issue.model_copy(update={"timeline": tuple(timeline)})
        self._changed(number)
        return new

    def create_pull(self, author: str, base: str, head: str, title: str, body: str, draft: bool) -> int:  # noqa: PLR0917
        """Open a pull request; returns its number."""
        if not self.file.pull_requests_allowed:
            raise MutationError(
                "GitHub Actions is not permitted to create or approve pull requests.", "FORBIDDEN"
            )
        for ref in (base, head):
            if ref not in self.branches:
                raise MutationError(
                    "Head sha can't be blank, Base sha can't be blank, "
                    f"No commits between {base} and {head}, Head ref must be a branch"
                )
        for number in self.pull_numbers:
            pull = self.items[number]
            if (
                pull.head == head
                and pull.base == base
                and not self.is_fork_pull(number)
                and not self.derived(number).closed
            ):
                raise MutationError(f"A pull request already exists for {self.owner}:{head}.")
        number = max(self.items, default=0) + 1
        self.items[number] = Issue(
            number=number,
            title=title,
            body=body,
            author=author,
            created_at=self.now(),
            base=base,
            head=head,
            draft=draft,
        )
        self.pull_numbers.add(number)
        self._changed(number)
        return number

    def update_pull(
        self, number: int, actor: str, title: str | None, body: str | None, state: str | None
    ) -> None:
        """Change a pull request's title, body or state (OPEN/CLOSED)."""
        pull = self.items[number]
        update: dict[str, Any] = {}
        if title is not None:
            update["title"] = title
        if body is not None:
            update["body"] = body
        if state is not None:
            closed = self.derived(number).closed
            event: ClosedItem | ReopenedItem | None = None
            if state == "CLOSED" and not closed:
                event = ClosedItem(type="closed", actor=actor, at=self.now(self._last_at(number)))
            elif state == "OPEN" and closed:
                event = ReopenedItem(type="reopened", actor=actor, at=self.now(self._last_at(number)))
            if event is not None:
                update["timeline"] = (*pull.timeline, event)
        self.items[number] = pull.model_copy(update=update)
        self._changed(number)

    # -- dumping -------------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        """The world as it is now, in the world format (``heads`` added: branch -> commit oid)."""
        base = self.file.model_dump(mode="json", exclude={"issues", "pull_requests", "files", "heads"})
        issues = [self.items[n] for n in sorted(self.items) if n not in self.pull_numbers]
        pulls = [self.items[n] for n in sorted(self.pull_numbers)]
        base["issues"] = [_dump_issue(issue) for issue in issues]
        base["pull_requests"] = [_dump_issue(pull) for pull in pulls]
        base["files"] = {branch: dict(self.commits[oid].files) for branch, oid in self.branches.items()}
        base["heads"] = dict(self.branches)
        return base


def _dump_issue(issue: Issue) -> dict[str, Any]:
    data = issue.model_dump(mode="json", exclude_defaults=True)
    data.setdefault("author", None)
    data.setdefault("timeline", [])
    for item in data["timeline"]:
        item.setdefault("actor" if item["type"] != "comment" else "author", None)
        if item["type"] == "closed":
            item.setdefault("state_reason", "COMPLETED")
    return data


def store_from(world: Any) -> Store:
    """A store from a dict, a path, a WorldFile or a Store (returned as is)."""
    if isinstance(world, Store):
        return world
    if isinstance(world, WorldFile):
        return Store(world)
    if isinstance(world, str | Path):
        return Store(load_world(world))
    if isinstance(world, dict):
        return Store(parse_world(world))
    raise WorldError(f"not a world: {type(world).__name__}")
