"""The scan: pages of issues by newest activity, from the first until the window is settled.

Its first page is the read's first request (scan_asks.first_ask), sent early by the caller: the
scan takes its answer, and asks that page again only with smaller pages when GitHub could not
answer its size. The base branch's configuration comes with that page, so the rest of the scan
(its bound, its window) follows the configuration in force. Every page goes through one `Pages`,
the one paging rule (every cursor moves on).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from assistant.config import Config
from corrections.read import notes
from corrections.read.horizon import HORIZON, wants_page
from corrections.read.options import ReadOptions
from corrections.read.reading import EVERY_ANALYSIS, Reading
from corrections.read.scan_asks import first_ask, page_ask
from queries.client import GitHubClient
from queries.errors import GitHubError
from queries.fetch import WindowPage, fetch_window_page
from queries.page_sizes import FULL_PAGE, PageSizes, ask_smaller
from queries.pagination import Next, Pages
from queries.requests import MAX_NODE_IDS
from queries.window_request import EarlyRequest

Progress = Callable[[str], None]


@dataclass(frozen=True)
class ScanEnd:
    """How far the scan got: it read every issue, or every issue updated at or after `through`."""

    exhausted: bool
    through: datetime | None
    budget_ended: bool  # a read back to a moment (`since`) whose points budget ended the scan first
    bounded: str | None  # the note when the scan's bound ended the search before the window was full


# The points a read may take with the horizon's page (corrections/read/horizon.py): the page is
# asked only while it and the details round fit in them, so a read whose window took two scan
# pages asks none.
HORIZON_POINTS = 3


def _room_for_horizon(spent: int, pages: int, window: int) -> bool:
    """Whether the horizon's page fits HORIZON_POINTS: the page at what the pages so far cost on
    average, the details round a point a request of MAX_NODE_IDS window analyses."""
    page = max(1, math.ceil(spent / pages)) if pages else 1
    return spent + page + max(1, math.ceil(window / MAX_NODE_IDS)) <= HORIZON_POINTS


def _room_for_page(spent: int, pages: int, window: int, page_size: int, budget: int) -> bool:
    """Whether one more scan page and the details of the analyses it may add fit the budget: a page
    costs what the pages so far cost on average, details a point a request of MAX_NODE_IDS analyses."""
    page = max(1, math.ceil(spent / pages)) if pages else 1
    return spent + page + math.ceil((window + page_size) / MAX_NODE_IDS) <= budget


class Scan:
    """The scan of one read: `first_page`, then `rest` with the reading the base branch settled."""

    def __init__(
        self, client: GitHubClient, options: ReadOptions, early: EarlyRequest, progress: Progress
    ) -> None:
        self._client, self._options, self._early, self._progress = client, options, early, progress
        self._pages = Pages("CorrectionWindow", self._page, ("issues",))
        self._reading: Reading | None = None  # None while the first page is asked
        self._scan_pages = options.config.context.scan_pages
        self._scanned = 0  # issues asked for: at most `scan_pages` full pages' worth, whatever the size
        self._exhausted = False
        self._through: datetime | None = None
        self._first_sizes = PageSizes()
        self._bodies = False  # the page asked now brings its issues' bodies (the horizon's page)
        self._bound = 0

    @property
    def sizes(self) -> PageSizes:
        """The page sizes the first page was answered at (or failed at): halved while GitHub could not answer."""
        return self._first_sizes

    async def first_page(self) -> WindowPage:
        """The first page, with the base branch's files; raises GitHubError when GitHub gives none."""
        page = await self._pages.next()
        assert page is not None  # the first page of a connection is always asked
        return page

    async def rest(self, reading: Reading, config: Config, first: WindowPage) -> ScanEnd:
        """The first page into `reading`, then the next pages until the window is settled, the
        scan's bound, the moment `since` or the points budget ends it (a page GitHub fails ends it
        too, the rest of the scan missing)."""
        self._reading, back_to, budget = reading, self._options.variant.since, self._options.variant.budget
        self._scan_pages = config.context.scan_pages if back_to is None else EVERY_ANALYSIS
        bound = self._bound = config.context.scan_pages * FULL_PAGE
        page, budget_ended = first, False
        while True:
            self._add(reading, page)
            if back_to is not None and _before(page, back_to):
                break  # a page last active before the moment: none after it acts after it
            if back_to is None and self._scanned >= bound:
                break
            if reading.scan_settled():
                break  # the horizon past the window takes what these pages hold, at no page more
            found, spent = sum(map(len, reading.window())), self._client.usage.points
            if budget is not None and not _room_for_page(
                spent, self._pages.count, found, reading.sizes.issues, budget
            ):
                budget_ended = True
                self._progress(f"the points budget ({budget}) ends the scan after {self._pages.count} pages")
                break
            try:
                following = await self._pages.next()
            except GitHubError as error:
                reading.record_missing({"scan"}, {error.category})
                break
            if following is None:
                break
            page = following
        return ScanEnd(self._exhausted, self._through, budget_ended, self._bounded(reading, bound))

    async def horizon_page(self, reading: Reading) -> None:
        """The horizon's one page past the window's (corrections/read/horizon.py), with its bodies,
        when the pages read hold fewer first analyses than the horizon and it fits HORIZON_POINTS;
        asked beside the details round, so no wave more. Not for a read back to a moment, nor past
        the scan's end or bound, nor once GitHub could not answer full pages."""
        ended = self._exhausted or self._scanned >= self._bound or "scan" in reading.missing
        # Not while GitHub cannot answer full pages: the halved read costs more already.
        ended = ended or reading.sizes.issues < FULL_PAGE or reading.sizes.timeline < FULL_PAGE
        found = len(reading.window()[0])
        wanted = wants_page(found, len(reading.beyond()), reading.max_analyzed, HORIZON)
        if self._options.variant.since is not None or ended or not wanted:
            return
        if not _room_for_horizon(self._client.usage.points, self._pages.count, found):
            return
        self._bodies = True
        try:
            page = await self._pages.next()
        except GitHubError as error:
            reading.record_missing({"scan"}, {error.category})
            return
        finally:
            self._bodies = False
        if page is None:
            return
        if "issues" in page.failed:
            reading.record_missing({"issues"}, {"partial answer"})
        reading.add_issue_page(page.issues, reading.sizes.timeline, horizon=True)
        self._progress(
            f"horizon page: {len(page.issues)} issues, horizon {len(reading.beyond())} past the window"
        )

    def _add(self, reading: Reading, page: WindowPage) -> None:
        if "issues" in page.failed:  # the files' parts are base_files' to judge
            reading.record_missing({"issues"}, {"partial answer"})
        reading.add_issue_page(page.issues, reading.sizes.timeline)
        if page.issues:
            self._through = page.issues[-1].updated_at
        self._exhausted = not page.page_info.has_next_page
        window_of = f" of {reading.max_analyzed}" if self._options.variant.since is None else ""
        self._progress(
            f"scan page {self._pages.count}: {len(page.issues)} issues, "
            f"window {len(reading.window()[0])}{window_of}"
        )

    def _bounded(self, reading: Reading, bound: int) -> str | None:
        """The window is the analysed issues among the most recently updated ones (GraphQL has no
        repository-wide list of comments): a bound that ended the search early is said."""
        found = len(reading.window()[0])
        ended_at_bound = self._scanned >= bound and not self._exhausted
        if found < reading.max_analyzed and ended_at_bound and self._options.variant.since is None:
            return notes.scan_bound(found, reading.max_analyzed, self._scanned)
        return None

    async def _page(self, cursors: Mapping[str, str | None]) -> tuple[WindowPage, dict[str, Next]]:
        """One scan page, asked again with smaller pages while GitHub cannot answer its size."""
        reading = self._reading

        async def send(sizes: PageSizes, _shrinkable: bool) -> tuple[WindowPage, int]:
            if reading is None:  # the first page: the early request's answer, else asked smaller
                sent = self._early.take()
                ask = self._early.ask if sent is not None else first_ask(self._options, sizes)
                return await fetch_window_page(self._client, ask, sent=sent), ask.page_size
            # page_ask marks the ask shrinkable exactly when the sizes can shrink.
            ask = page_ask(
                self._options.owner,
                self._options.name,
                scan_pages=self._scan_pages,
                sizes=sizes,
                scanned=self._scanned,
                after=cursors["issues"],
                bodies=self._bodies,
            )
            return await fetch_window_page(self._client, ask), ask.page_size

        sizes, keep = (
            (self._first_sizes, self._keep) if reading is None else (reading.sizes, reading.use_sizes)
        )
        (page, asked), _ = await ask_smaller(sizes, send, what="scan page", told=self._progress, keep=keep)
        self._scanned += asked
        return page, {"issues": page.page_info.next}

    def _keep(self, sizes: PageSizes) -> None:
        self._first_sizes = sizes


def _before(page: WindowPage, moment: datetime) -> bool:
    return bool(page.issues) and page.issues[-1].updated_at < moment
