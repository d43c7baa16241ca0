"""What has been read so far, which issues form the window, and what the next round must ask.

Pure: the job feeds GitHub's answers in and asks `next_request` what to fetch until nothing is
missing or a cap is reached, so a run's cost never grows with the repository.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.identity import is_person, normalize_login
from corrections import assemble, notes
from corrections.models import Analysis, Issue, Permission, Reaction
from corrections.rules import RuleSettings, analyses, duplicate_deciders, people_after
from queries.models import CommentReactions, IssueNode, TimelinePage
from queries.page_sizes import FULL_PAGE, PageSizes
from queries.requests import DetailsRequest

# Caps that bound a run whatever the repository holds.
MAX_TIMELINE_PAGES = 10  # full pages of a timeline: 1,000 items per issue
MAX_TIMELINE_ITEMS = MAX_TIMELINE_PAGES * FULL_PAGE  # the same cap when pages were shrunk
MAX_REACTION_PAGES = 3  # 300 👎 per analysis
MAX_LOGINS_PER_ROUND = 100
MAX_PREFETCH_LOGINS = 60


@dataclass
class IssueRead:
    """One scanned issue: its events so far, and where its timeline continues."""

    issue: Issue
    cursor: str | None
    # Timeline items the pages read so far could hold (their page sizes added up).
    items_asked: int = FULL_PAGE
    first: Analysis | None = None
    warnings: list[str] = field(default_factory=list)

    def refresh(self, settings: RuleSettings) -> None:
        """Find the first analysis again after more of the timeline arrived."""
        found, self.warnings = analyses(self.issue, settings)
        self.first = next((a for a in found if a.kind == "first"), None)

    @property
    def can_continue(self) -> bool:
        """More timeline exists and the cap allows reading it."""
        return (
            not self.issue.timeline_complete
            and self.cursor is not None
            and self.items_asked < MAX_TIMELINE_ITEMS
        )

    @property
    def truncated(self) -> bool:
        """More timeline exists than the cap lets a run read."""
        return not self.issue.timeline_complete and not self.can_continue


@dataclass
class Reading:
    """The state of one run's reading."""

    settings: RuleSettings
    max_analyzed: int
    order: list[int] = field(default_factory=list)
    issues: dict[int, IssueRead] = field(default_factory=dict)
    reactors: dict[str, list[Reaction]] = field(default_factory=dict)
    reaction_cursor: dict[str, str | None] = field(default_factory=dict)
    reaction_pages: dict[str, int] = field(default_factory=dict)
    permissions: dict[str, Permission] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    # Logins GraphQL's collaborator list left out: READ only once REST says so.
    unlisted: set[str] = field(default_factory=set)
    unreadable_logins: set[str] = field(default_factory=set)
    permissions_via_rest: bool = False
    prefetched: bool = False
    missing: set[notes.Part] = field(default_factory=set)
    # Paths learnings are anchored at (as `REF:PATH`), and whether the base branch has them.
    path_checks: tuple[str, ...] = ()
    path_exists: dict[str, bool] = field(default_factory=dict)
    paths_asked: bool = False
    # Page sizes asked for now: halved when GitHub could not answer bigger queries.
    sizes: PageSizes = field(default_factory=PageSizes)

    def add_issue_page(self, nodes: tuple[IssueNode, ...], timeline_size: int = FULL_PAGE) -> None:
        """Issues of one scan page, in GitHub's order (newest activity first).

        `timeline_size`: the items asked for each issue's first timeline page.
        """
        for node in nodes:
            if node.number in self.issues:
                continue  # Activity moved it between pages: each issue is read once.
            read = IssueRead(
                issue=assemble.issue(node),
                cursor=node.timeline_items.page_info.end_cursor,
                items_asked=timeline_size,
            )
            read.refresh(self.settings)
            self.order.append(node.number)
            self.issues[node.number] = read

    def add_timeline(self, number: int, page: TimelinePage, size: int = FULL_PAGE) -> None:
        """A later page of one issue's timeline, asked with `size` items."""
        read = self.issues[number]
        read.issue = assemble.extend(read.issue, page)
        read.cursor = page.page_info.end_cursor
        read.items_asked += size
        read.refresh(self.settings)

    def add_reactions(self, found: CommentReactions) -> None:
        """A page of 👎 on an analysis."""
        reactions = [
            Reaction(actor=None if n.user is None else assemble.actor(n.user), at=n.created_at)
            for n in found.reactions.nodes
            if n is not None
        ]
        self.reactors.setdefault(found.id, []).extend(reactions)
        info = found.reactions.page_info
        self.reaction_cursor[found.id] = info.end_cursor if info.has_next_page else None
        self.reaction_pages[found.id] = self.reaction_pages.get(found.id, 0) + 1

    def add_permissions(self, levels: dict[str, str]) -> None:
        """Permissions found for logins (as GitHub spells the level)."""
        for login, level in levels.items():
            self.permissions[normalize_login(login)] = Permission(level)

    def window(self) -> tuple[list[int], list[int]]:
        """The window (newest first) and the undecided issues ranked inside it.

        An issue is undecided while its timeline read so far has no first analysis but continues.
        """
        window: list[int] = []
        undecided: list[int] = []
        for number in self.order:
            if len(window) >= self.max_analyzed:
                break
            read = self.issues[number]
            if read.first is not None:
                window.append(number)
            elif read.can_continue:
                undecided.append(number)
        return window, undecided

    def scan_settled(self) -> bool:
        """The window is full and nothing ranked inside it is undecided."""
        window, undecided = self.window()
        return len(window) >= self.max_analyzed and not undecided

    def needed_logins(self) -> set[str]:
        """People whose permission decides a rule on a window issue."""
        needed: set[str] = set()
        window, _ = self.window()
        for number in window:
            read = self.issues[number]
            assert read.first is not None
            needed |= duplicate_deciders(read.issue, read.first, self.settings)
            for reaction in self.reactors.get(read.first.node_id, []):
                reactor = reaction.actor
                if is_person(reactor, self.settings.assistant):
                    assert reactor is not None
                    needed.add(normalize_login(reactor.login))
        return needed

    def unlisted_needed(self) -> list[str]:
        """Needed logins GraphQL did not list and REST has not answered for yet."""
        return sorted((self.needed_logins() & self.unlisted) - set(self.permissions))

    def pending_logins(self) -> list[str]:
        """Needed logins that have not been asked yet."""
        return sorted(self.needed_logins() - self.asked - set(self.permissions))

    def next_request(self) -> DetailsRequest:
        """What the next details round must ask (empty when nothing is missing)."""
        window, undecided = self.window()
        timelines = tuple(
            (number, self.issues[number].cursor or "")
            for number in [*window, *undecided]
            if self.issues[number].can_continue
        )
        analysis_ids = tuple(
            first.node_id
            for number in window
            if (first := self.issues[number].first) is not None and first.node_id not in self.reaction_pages
        )
        reactions = tuple(
            (node_id, cursor)
            for node_id, cursor in sorted(self.reaction_cursor.items())
            if cursor is not None and self.reaction_pages.get(node_id, 0) < MAX_REACTION_PAGES
        )
        logins: list[str] = []
        if not self.permissions_via_rest:
            logins = self.pending_logins()
            if not self.prefetched:
                # Likely 👎 reactors are the people who act on issues: ask them now, not next round.
                likely: set[str] = set()
                for number in window:
                    read = self.issues[number]
                    assert read.first is not None
                    likely |= people_after(read.issue, read.first, self.settings)
                extra = sorted(likely - set(logins) - self.asked - set(self.permissions))
                logins += extra[:MAX_PREFETCH_LOGINS]
            logins = logins[:MAX_LOGINS_PER_ROUND]
        paths = () if self.paths_asked else self.path_checks
        return DetailsRequest(
            analysis_ids=analysis_ids,
            logins=tuple(logins),
            timelines=timelines,
            reactions=reactions,
            paths=paths,
        )

    def marker_warnings(self) -> list[str]:
        """A warning per analysis marker that does not parse, on every issue read (window or not)."""
        return [warning for number in self.order for warning in self.issues[number].warnings]

    def window_issues(self) -> list[IssueRead]:
        """The issues of the window, newest activity first."""
        window, _ = self.window()
        return [self.issues[number] for number in window]
