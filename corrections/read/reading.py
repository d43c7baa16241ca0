"""What has been read so far, which issues form the window, and what the next round must ask.

Pure: the job feeds GitHub's answers in and asks `next_request` what to fetch until nothing is
missing or a cap is reached, so a run's cost never grows with the repository. The state is
private and changes only through `Reading`'s methods, each one step of the reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from assistant.identity import is_person, normalize_login
from corrections.read import notes
from corrections.read.details_answer import DetailsAnswer
from corrections.read.horizon import asked_further, past_window
from corrections.read.issue_read import IssueRead
from corrections.read.lookup_order import Signals
from corrections.rules import from_github
from corrections.rules.duplicates import duplicate_deciders
from corrections.rules.issue import event_actors_after, others_markers, people_after
from corrections.rules.models import Analysis, Issue, Permission, Reaction
from corrections.rules.settings import RuleSettings
from queries.errors import BadResponse, PermissionDenied
from queries.models import CommentReactions, IssueNode, PageInfo, TimelinePage
from queries.page_sizes import FULL_PAGE, PageSizes
from queries.pagination import Next, advanced
from queries.requests import LOOKUPS_CAPPED, MAX_REST_LOOKUPS, DetailsRequest

# Caps that bound a run whatever the repository holds.
MAX_REACTION_PAGES = 3  # 300 👎 per analysis
MAX_LOGINS_PER_ROUND = 100
MAX_PREFETCH_LOGINS = 60
# The window of a read back to a moment (`corrections quality --month`): every first analysis
# scanned, however many; the scan's own end (the moment, a points budget) bounds it instead.
EVERY_ANALYSIS = 1_000_000_000


class Reading:
    """The state of one run's reading; GitHub's answers go in through the `add_*` methods."""

    def __init__(
        self,
        settings: RuleSettings,
        max_analyzed: int,
        *,
        bodies: bool = True,
        sizes: PageSizes | None = None,
        path_checks: Iterable[str] = (),
        known: Mapping[str, str] = {},
        horizon: int = 0,
    ) -> None:
        self._settings = settings
        self._max_analyzed = max_analyzed
        # First analyses read in all, the window's first: `horizon` beyond it, never fewer than it.
        self._horizon = max(horizon, max_analyzed)
        self._ask_bodies = bodies  # the issues' text (the context's; the monthly numbers need none)
        self._order: list[int] = []  # issue numbers in GitHub's order, newest activity first
        self._node_ids: dict[int, str] = {}  # issue number -> node id (to ask the window's bodies)
        self._bodies_asked: set[int] = set()
        self._horizon_page: set[int] = set()  # issues of the horizon's page (add_issue_page)
        self._issues: dict[int, IssueRead] = {}
        self._reactors: dict[str, list[Reaction]] = {}  # analysis node id -> 👎 read so far
        self._reaction_cursor: dict[str, str | None] = {}
        self._reaction_pages: dict[str, int] = {}
        self._permissions: dict[str, Permission] = {}
        self._asked: set[str] = set()
        self._permissions_via_rest = False
        self._rest_asked: set[str] = set()  # logins whose REST look-up has started
        self._collaborators_refused: bool | None = None
        self._refused = False  # GitHub refused to tell some permissions (REST's 403 too)
        self._prefetched = False
        self._missing: set[notes.Part] = set()
        self._people_not_read = 0  # needed logins whose permission is unknown (mark_unknown_permissions)
        self._lookups_capped = False  # REST's look-up cap left some of them unasked
        self._categories: set[str] = set()  # why parts are missing (GitHub's failures, caps)
        # Paths learnings are anchored at (as `REF:PATH`), and whether the base branch has them.
        self._path_checks = tuple(path_checks)
        self._path_exists: dict[str, bool] = {}
        self._paths_asked = False
        # Page sizes asked for now: halved when GitHub could not answer bigger queries.
        self._sizes = sizes or PageSizes()
        self._add_permissions(known)  # levels an earlier run read (login -> level): never asked again

    # What has been read.

    @property
    def settings(self) -> RuleSettings:
        """The rules' settings in force (the base branch's)."""
        return self._settings

    @property
    def max_analyzed(self) -> int:
        """The window's size."""
        return self._max_analyzed

    @property
    def sizes(self) -> PageSizes:
        """The page sizes to ask for now."""
        return self._sizes

    @property
    def permissions_via_rest(self) -> bool:
        """GraphQL may not list collaborators here: permissions are asked through REST."""
        return self._permissions_via_rest

    @property
    def missing(self) -> frozenset[notes.Part]:
        """Parts that could not be read."""
        return frozenset(self._missing)

    def note(self) -> str | None:
        """The fixed note naming what could not be read and why; None when nothing is missing."""
        capped = MAX_REST_LOOKUPS if self._lookups_capped else None
        found = notes.partial(
            self._missing, self._categories, people_not_read=self._people_not_read, lookup_cap=capped
        )
        if found is not None and self._refused:
            found += " " + notes.permissions_refused()
        return found

    def issue(self, number: int) -> IssueRead:
        """One scanned issue as read so far."""
        return self._issues[number]

    def reactions_on(self, node_id: str) -> list[Reaction]:
        """The 👎 read on an analysis (none when none were read)."""
        return list(self._reactors.get(node_id, []))

    def reactions_answered(self, node_id: str) -> bool:
        """Whether GitHub answered at least one page of 👎 on an analysis."""
        return bool(self._reaction_pages.get(node_id))

    def known_permissions(self) -> dict[str, Permission]:
        """Permissions read so far, by normalized login."""
        return dict(self._permissions)

    def paths_found(self) -> dict[str, bool]:
        """Whether the base branch has each anchored path asked (`REF:PATH` -> exists)."""
        return dict(self._path_exists)

    # What GitHub answered.

    def use_sizes(self, sizes: PageSizes) -> None:
        """The page sizes GitHub answered (smaller after it could not answer bigger queries)."""
        self._sizes = sizes

    def collaborators_listed(self, refused: bool | None) -> None:
        """What the first scan page said of GraphQL's collaborator list: refused (permissions go to
        REST from then on; also once REST's list answered), listed, or not told (None: both ready)."""
        self._collaborators_refused = refused
        self._permissions_via_rest = self._permissions_via_rest or refused is True

    def record_missing(self, parts: Iterable[notes.Part], categories: Iterable[str] = ()) -> None:
        """Parts that could not be read, and the categories of why."""
        self._missing.update(parts)
        self._categories.update(categories)

    def add_issue_page(
        self, nodes: tuple[IssueNode, ...], timeline_size: int = FULL_PAGE, *, horizon: bool = False
    ) -> None:
        """Issues of one scan page in GitHub's order (newest activity first), each with its first
        `timeline_size` timeline items; `horizon`: the horizon's page (corrections/read/horizon.py)."""
        for node in nodes:
            if node.number in self._issues:
                continue  # Activity moved it between pages: each issue is read once.
            cursor = node.timeline_items.page_info.end_cursor
            self._issues[node.number] = IssueRead.of(
                from_github.issue(node), cursor, timeline_size, self._settings
            )
            self._node_ids[node.number] = node.id
            self._order.append(node.number)
            if horizon:
                self._horizon_page.add(node.number)
                self._bodies_asked.add(node.number)

    def add_details(self, asked: DetailsRequest, answer: DetailsAnswer) -> bool:
        """One details round's answer, asked with the current page sizes.

        Returns True when the answer shows that GraphQL may not list collaborators here: from now
        on permissions are asked through REST.
        """
        if not answer.permissions_forbidden:
            # Asked once: a login GitHub did not answer for is not asked again (the note says so).
            self._asked |= {normalize_login(login) for login in asked.logins}
        self._prefetched = True
        self._paths_asked = self._paths_asked or bool(asked.paths)
        self._path_exists.update(answer.paths)
        for reactions in answer.reactions.values():
            self._add_reactions(reactions)
        self._add_bodies(asked.bodies, answer.bodies)
        for number, page in answer.timelines.items():
            self._add_timeline(number, page)
        self._add_permissions(answer.permissions)
        if answer.failed:
            self.record_missing((notes.part(name) for name in answer.failed), {"partial answer"})
            # Parts GitHub did not answer are not asked again: the caps bound the run.
            for node_id in asked.analysis_ids:
                self._reaction_pages.setdefault(node_id, 0)
            for number, _cursor in asked.timelines:
                if number not in answer.timelines:
                    self._issues[number] = replace(self._issues[number], cursor=None)
        switched = answer.permissions_forbidden and not self._permissions_via_rest
        self._permissions_via_rest = self._permissions_via_rest or answer.permissions_forbidden
        return switched

    def details_failed(self, asked: DetailsRequest, category: str) -> None:
        """A details round GitHub did not answer at all: what it asked is missing."""
        parts: set[notes.Part] = {"permissions"}
        if asked.analysis_ids or asked.reactions:
            parts.add("reactions")
        if asked.bodies:
            parts.add("bodies")
        if asked.timelines:
            parts.add("timelines")
        self.record_missing(parts, {category})

    def add_rest_permissions(
        self, asked: Iterable[str], found: Mapping[str, str], unknown: Sequence[str], failures: Iterable[str]
    ) -> None:
        """Permissions REST answered for the logins `asked`; `unknown` were not read, for `failures`.

        The look-up cap is the reader's bound, not GitHub's failure: the note says so (CAPS_REACHED).
        """
        self._add_permissions(found)
        self._asked |= set(asked)
        if unknown:
            why = set(failures) or {"permission look-up failed"}
            if LOOKUPS_CAPPED in why:
                self._lookups_capped = True
                why = (why - {LOOKUPS_CAPPED}) | {notes.CAPS_REACHED}
            self.record_missing({"permissions"}, why)
            if PermissionDenied.category in failures:
                self._refused = True

    def lookups_capped(self) -> None:
        """REST's cap of a run left needed logins unasked (the note says the cap, not a failure)."""
        self._lookups_capped = True
        self.record_missing({"permissions"}, {notes.CAPS_REACHED})

    def start_asking(self, logins: Iterable[str]) -> None:
        """Logins whose REST look-up has started: no later round asks them again, by either API."""
        self._asked |= set(logins)
        self._rest_asked |= set(logins)

    def rest_wanted(self) -> list[str]:
        """Logins to ask REST about now, beside the next GraphQL round (or as the last wave).

        The people whose permission decides a rule and whose permission is not known: GraphQL
        did not list them, refused to, or was never asked (a 👎 first seen in the last round
        goes to REST directly, not to another GraphQL round and then REST). Before the first
        details round, unless GitHub listed collaborators (then the details round asks its list
        for them), also the people who labelled, closed or marked a window issue after its
        analysis (GitHub lets only triagers and up do that, mostly): the likeliest 👎, so the
        common case needs no wave after the details round, whichever API answers permissions.
        """
        wanted = self.needed_logins()
        if not self._prefetched and self._collaborators_refused is not False:
            wanted |= self._in_window(event_actors_after)
        return Signals.of(self).ordered(wanted - set(self._permissions) - self._rest_asked)

    def mark_unknown_permissions(self) -> None:
        """The reading is over: a needed login whose permission is still unknown leaves permissions
        missing, and the note counts them."""
        self._people_not_read = len(self.needed_logins() - set(self._permissions))
        if self._people_not_read:
            self.record_missing({"permissions"})

    def _moves_on(self, part: notes.Part, what: str, asked: str | None, info: PageInfo) -> bool:
        """Whether a connection's page ends it or gives a cursor that moves on (the one paging rule,
        queries.pagination.advanced); one that does not is read no further and `part` is missing."""
        if not info.has_next_page:
            return True
        try:
            advanced(what, asked, Next(more=True, cursor=info.end_cursor))
        except BadResponse as error:
            self.record_missing({part}, {error.category})
            return False
        return True

    def _add_timeline(self, number: int, page: TimelinePage) -> None:
        read = self._issues[number]
        info = page.page_info
        if not self._moves_on("timelines", f"#{number}'s timeline", read.cursor, info):
            # Given back the cursor it was asked with, the page is the one read before.
            issue = read.issue if info.end_cursor == read.cursor else from_github.extend(read.issue, page)
            self._issues[number] = IssueRead.of(issue, None, read.items_asked, self._settings)
            return
        self._issues[number] = IssueRead.of(
            from_github.extend(read.issue, page),
            info.end_cursor,
            read.items_asked + self._sizes.timeline,
            self._settings,
        )

    def _add_bodies(self, asked: Sequence[str], bodies: Mapping[str, str]) -> None:
        """The bodies of window issues, asked once (one GitHub did not answer is shown without it)."""
        by_id = {node_id: number for number, node_id in self._node_ids.items()}
        for node_id in asked:
            number = by_id[node_id]
            self._bodies_asked.add(number)
            if node_id in bodies:
                read = self._issues[number]
                self._issues[number] = replace(
                    read, issue=read.issue.model_copy(update={"body": bodies[node_id]})
                )

    def _add_reactions(self, found: CommentReactions) -> None:
        info = found.reactions.page_info
        asked = self._reaction_cursor.get(found.id)
        moves_on = self._moves_on("reactions", f"the reactions of {found.id}", asked, info)
        self._reaction_pages[found.id] = self._reaction_pages.get(found.id, 0) + 1
        self._reaction_cursor[found.id] = info.end_cursor if info.has_next_page and moves_on else None
        if not moves_on and asked is not None and info.end_cursor == asked:
            return  # the page read before, given again
        reactions = [
            Reaction(actor=None if n.user is None else from_github.actor(n.user), at=n.created_at)
            for n in found.reactions.nodes
            if n is not None
        ]
        self._reactors.setdefault(found.id, []).extend(reactions)

    def _add_permissions(self, levels: Mapping[str, str]) -> None:
        for login, level in levels.items():
            self._permissions[normalize_login(login)] = Permission(level)

    # What follows from it.

    def window(self) -> tuple[list[int], list[int]]:
        """The window (newest first) and the undecided issues ranked inside it.

        An issue is undecided while its timeline read so far has no first analysis but continues.
        """
        window: list[int] = []
        undecided: list[int] = []
        for number in self._order:
            if len(window) >= self._max_analyzed:
                break
            read = self._issues[number]
            if read.first is not None:
                window.append(number)
            elif read.can_continue:
                undecided.append(number)
        return window, undecided

    def scan_settled(self) -> bool:
        """The window is full and nothing ranked inside it is undecided."""
        window, undecided = self.window()
        return len(window) >= self._max_analyzed and not undecided

    def beyond(self) -> list[int]:
        """The horizon past a full window (corrections/read/horizon.py)."""
        window, _ = self.window()
        return past_window(self._order, self._issues, window, self._max_analyzed, self._horizon)

    def horizon_issues(self) -> list[IssueRead]:
        """The issues of the horizon past the window."""
        return [self._issues[number] for number in self.beyond()]

    def _in_window(self, people: Callable[[Issue, Analysis, RuleSettings], set[str]]) -> set[str]:
        """`people` of every window issue after its first analysis, together."""
        found: set[str] = set()
        for read in self.window_issues():
            assert read.first is not None
            found |= people(read.issue, read.first, self._settings)
        return found

    def needed_logins(self) -> set[str]:
        """People whose permission decides a rule on a window or horizon issue (the horizon: no 👎)."""
        late = self._horizon_page  # read as its page shows them: a look-up after it is a wave more
        reads = [*self.window_issues(), *(r for r in self.horizon_issues() if r.issue.number not in late)]
        needed = {p for r in reads if r.first for p in duplicate_deciders(r.issue, r.first, self._settings)}
        for read in self.window_issues():
            assert read.first is not None
            for reaction in self._reactors.get(read.first.node_id, []):
                reactor = reaction.actor
                if is_person(reactor, self._settings.assistant):
                    assert reactor is not None
                    needed.add(normalize_login(reactor.login))
        return needed

    def pending_logins(self) -> list[str]:
        """Needed logins that have not been asked yet, in the order they are looked up."""
        return Signals.of(self).ordered(self.needed_logins() - self._asked - set(self._permissions))

    def next_request(self) -> DetailsRequest:
        """What the next details round must ask (empty when nothing is missing)."""
        window, undecided = self.window()
        page, done = self._horizon_page, self._prefetched
        further = asked_further((window, undecided), self.beyond(), self._issues, done, page)
        timelines = tuple((number, self._issues[number].cursor or "") for number in further[0])
        # The 👎 of the window's analyses only (a 👎 is no decision that comes back).
        analysis_ids = tuple(
            first.node_id
            for number in window
            if (first := self._issues[number].first) is not None and first.node_id not in self._reaction_pages
        )
        reactions = tuple(
            (node_id, cursor)
            for node_id, cursor in sorted(self._reaction_cursor.items())
            if cursor is not None and self._reaction_pages.get(node_id, 0) < MAX_REACTION_PAGES
        )
        logins: list[str] = []
        if not self._permissions_via_rest:
            # The people needed are asked through REST (`rest_wanted`, which counts every grant),
            # beside this round; GraphQL's list only for those past REST's cap of a run.
            logins = self.pending_logins()
            if not self._prefetched:
                # Likely 👎 reactors are the people who act on issues: ask them now, not next round.
                likely = self._in_window(people_after)
                extra = Signals.of(self).ordered(likely - set(logins) - self._asked - set(self._permissions))
                logins += extra[:MAX_PREFETCH_LOGINS]
            logins = logins[:MAX_LOGINS_PER_ROUND]
        paths = () if self._paths_asked else self._path_checks
        bodies = tuple(
            self._node_ids[number]
            for number in further[1]
            if self._ask_bodies and number not in self._bodies_asked
        )
        return DetailsRequest(
            analysis_ids=analysis_ids,
            bodies=bodies,
            logins=tuple(logins),
            timelines=timelines,
            reactions=reactions,
            paths=paths,
        )

    def marker_warnings(self) -> list[str]:
        """A warning per analysis marker that does not parse, on every issue read (window or not)."""
        return [warning for number in self._order for warning in self._issues[number].warnings]

    def others_markers(self) -> dict[tuple[str, str], int]:
        """Accounts other than the assistant (login, GraphQL type) whose comments on the issues read
        carry analysis markers, with how many issues each: asked only when no analysis was found."""
        counts: dict[tuple[str, str], int] = {}
        for number in self._order:
            for account in others_markers(self._issues[number].issue, self._settings):
                counts[account] = counts.get(account, 0) + 1
        return counts

    def scanned(self) -> list[IssueRead]:
        """Every issue the scan read, newest activity first."""
        return [self._issues[number] for number in self._order]

    def window_issues(self) -> list[IssueRead]:
        """The issues of the window, newest activity first."""
        window, _ = self.window()
        return [self._issues[number] for number in window]
