"""One run of the correction reader: the round trips, then the rules. Async, as is all code here
that waits on GitHub (read/base_files.py, and the commands in corrections/commands/ that run a read).

A failing GitHub never raises out of `read_corrections`: what could not be read becomes a note.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from assistant.config import Config, Override
from corrections.read import notes
from corrections.read.analysed import AnalysedIssue
from corrections.read.base_files import read_base_files
from corrections.read.outcome import ReadOutcome
from corrections.read.reading import EVERY_ANALYSIS, Reading
from corrections.read.scan_asks import files_to_read, page_ask
from corrections.rules.issue import correct
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import Vocabulary, parse_vocabulary
from learnings.staleness import anchors, stale_by_anchors
from learnings.store import parse_jsonl
from queries.client import GitHubClient
from queries.errors import GitHubError
from queries.fetch import DetailsResult, WindowPage, fetch_details, fetch_window_page
from queries.page_sizes import FULL_PAGE, PageSizes, ask_smaller
from queries.pagination import Next, Pages
from queries.permissions import (
    MAX_REST_LOOKUPS,
    CollaboratorList,
    fetch_permissions_rest,
    read_collaborator_list,
)
from queries.requests import MAX_NODE_IDS, DetailsRequest
from queries.window_request import EarlyRequest

MAX_DETAIL_ROUNDS = 6
DETAILS_IN_FLIGHT = 4  # the requests of one details round sent at the same time
Progress = Callable[[str], None]


@dataclass(frozen=True)
class ReadRequest:
    """What to read: the repository, the base ref for files, and the configuration.

    `config_path` (the action): the configuration is read at `base_ref` through GitHub in round
    trip 1, never from the workspace; `config` then holds only the defaults and the step's inputs,
    and `max_analyzed` (the step's input) applies over the configuration read.
    """

    owner: str
    name: str
    config: Config
    base_ref: str = "HEAD"
    config_path: str | None = None
    config_required: bool = False
    max_analyzed: int | None = None
    # Keys the step's inputs set over the configuration read (`assistant-login`).
    overrides: tuple[Override, ...] = ()
    # The issue being analysed (`--issue N`, the action's event); its text is asked for with the
    # first page when not known already.
    analysed: AnalysedIssue | None = None
    # `corrections quality --month`: every first analysis on the issues active since this moment,
    # scanning (newest activity first) until an issue last active before it, within `budget` points.
    since: datetime | None = None
    budget: int | None = None
    # (login, permission) read by an earlier run (the backtest's cache): not asked again.
    known_permissions: tuple[tuple[str, str], ...] = ()
    # REST's collaborator list asked first, for everyone at once (queries/permissions.py): only for
    # a maintainer's command, whose token may push; a workflow's token is refused it.
    collaborator_list: bool = False


def _room_for_page(spent: int, pages: int, window: int, page_size: int, budget: int) -> bool:
    """Whether one more scan page and the details of the analyses it may add fit the budget: a page
    costs what the pages so far cost on average, details a point a request of MAX_NODE_IDS analyses."""
    page = max(1, math.ceil(spent / pages)) if pages else 1
    return spent + page + math.ceil((window + page_size) / MAX_NODE_IDS) <= budget


def _settings(config: Config, vocabulary: Vocabulary) -> RuleSettings:
    return RuleSettings.from_config(config).with_vocabulary(vocabulary)


async def read_corrections(
    client: GitHubClient, request: ReadRequest, progress: Progress, *, first_sent: EarlyRequest | None = None
) -> ReadOutcome:
    """Read the window and its corrections; GitHub failures end as a note, never an exception.

    `first_sent`: the first page's request, already sent (corrections/commands/read.py); its answer is used
    when the first page asks exactly that, else it is cancelled and the page asked for anew.
    Raises ConfigError when the configuration read at the base ref (the action) does not validate.
    """
    config = request.config
    outcome = ReadOutcome(
        repository=f"{request.owner}/{request.name}",
        usage=client.usage,
        config=config,
        analysed=request.analysed,
    )
    ask_analysed = request.analysed.text_to_ask if request.analysed is not None else None
    if config.context.max_analyzed == 0:
        outcome.off = True
        outcome.note = notes.OFF
        return outcome
    files = files_to_read(config, request.base_ref, request.config_path, request.config_required)
    back_to = request.since
    window_size = config.context.max_analyzed if back_to is None else EVERY_ANALYSIS
    reading = Reading(
        _settings(config, Vocabulary()),
        window_size,
        bodies=back_to is None,
        known=dict(request.known_permissions),
    )
    page_number = 0
    # The scan reads at most `scan_pages` full pages' worth of issues, whatever its page size (the
    # base branch's configuration, read with the first page, may change `scan_pages`).
    scanned = 0

    async def scan_page(
        cursors: Mapping[str, str | None],
    ) -> tuple[tuple[WindowPage, PageSizes], dict[str, Next]]:
        """One scan page, asked again with smaller pages while GitHub cannot answer its size."""
        nonlocal scanned
        first = page_number == 0

        async def send(sizes: PageSizes, _shrinkable: bool) -> tuple[WindowPage, int]:
            # page_ask marks the ask shrinkable exactly when the sizes can shrink.
            ask = page_ask(
                request.owner,
                request.name,
                scan_pages=config.context.scan_pages if back_to is None else EVERY_ANALYSIS,
                sizes=sizes,
                scanned=scanned,
                after=cursors["issues"],
                files=files if first else None,
                analysed=ask_analysed if first else None,
            )
            return await fetch_window_page(client, ask, early=first_sent if first else None), ask.page_size

        (page, asked), sizes = await ask_smaller(
            reading.sizes, send, what="scan page", told=progress, keep=reading.use_sizes
        )
        scanned += asked
        return (page, sizes), {"issues": page.page_info.next}

    pages = Pages("CorrectionWindow", scan_page, ("issues",))
    while back_to is not None or scanned < config.context.scan_pages * FULL_PAGE:
        if request.budget is not None and page_number:
            found = sum(map(len, reading.window()))
            if not _room_for_page(
                client.usage.points, page_number, found, reading.sizes.issues, request.budget
            ):
                outcome.budget_ended = True
                progress(f"the points budget ({request.budget}) ends the scan after {page_number} pages")
                break
        try:
            next_page = await pages.next()
        except GitHubError as error:
            if page_number == 0:
                outcome.failed = True
                outcome.page_sizes = reading.sizes
                outcome.failure = error.category
                outcome.note = notes.failed(error.category)
                return outcome
            reading.record_missing({"scan"}, {error.category})
            break
        if next_page is None:
            break
        page, sizes = next_page
        page_number += 1
        if "issues" in page.failed:  # the files' parts are base_files' to judge
            reading.record_missing({"issues"}, {"partial answer"})
        if page_number == 1 and ask_analysed is not None:
            if page.analysed is None:
                outcome.warnings.append(
                    f"issue #{ask_analysed} not found: corrections are in newest-first order"
                )
            else:
                outcome.analysed = AnalysedIssue(
                    number=ask_analysed, title=page.analysed.title, body=page.analysed.body
                )
        if page_number == 1:
            base = await read_base_files(
                client,
                request.owner,
                request.name,
                files=files,
                page=page,
                config=config,
                max_analyzed=request.max_analyzed,
                overrides=request.overrides,
            )
            if base.config_unread is not None:
                outcome.failed = True
                outcome.failure = base.config_unread
                outcome.note = notes.config_unread(
                    f"{request.base_ref}:{request.config_path}", base.config_unread
                )
                return outcome
            config = outcome.config = base.config
            outcome.warnings.extend(base.warnings)
            reading.record_missing(base.failed, base.categories)
            if config.context.max_analyzed == 0:
                outcome.off = True
                outcome.note = notes.OFF_AT_BASE
                return outcome
            labels_text = base.labels
            if "labels" in base.failed:
                outcome.warnings.append(
                    f"{config.context.labels_file} could not be read at {request.base_ref}: "
                    "no label is a correction"
                )
            elif labels_text is None:
                outcome.warnings.append(
                    f"{config.context.labels_file} not found at {request.base_ref}: no label is a correction"
                )
            outcome.vocabulary = parse_vocabulary(labels_text or "")
            path_checks: list[str] = []
            if config.learnings.enabled:
                outcome.learnings = parse_jsonl(
                    base.learnings or "", source=f"{request.base_ref}:{config.learnings.file}"
                )
                path_checks = [
                    f"{request.base_ref}:{path}" for path in sorted(anchors(outcome.learnings.learnings))
                ]
            if back_to is None:
                window_size = config.context.max_analyzed
            reading.use_base(_settings(config, outcome.vocabulary), window_size, path_checks)
        if page_number == 1:
            reading.collaborators_listed(page.collaborators_refused)
        reading.add_issue_page(page.issues, sizes.timeline)
        if page.issues:
            outcome.scanned_through = page.issues[-1].updated_at
        outcome.scan_exhausted = not page.page_info.has_next_page
        window_of = f" of {reading.max_analyzed}" if back_to is None else ""
        progress(
            f"scan page {page_number}: {len(page.issues)} issues, window {len(reading.window()[0])}{window_of}"
        )
        if reading.scan_settled():
            break
        if back_to is not None and page.issues and page.issues[-1].updated_at < back_to:
            break  # the issues after it were last active before the moment: none acts after it
    # The window is the analysed issues among the most recently updated ones (GraphQL has no
    # repository-wide list of comments): a bound that ended the search early is said.
    bounded = None
    found = len(reading.window()[0])
    ended_at_bound = scanned >= config.context.scan_pages * FULL_PAGE and not outcome.scan_exhausted
    if found < reading.max_analyzed and ended_at_bound and back_to is None:
        bounded = notes.scan_bound(found, reading.max_analyzed, scanned)
    listing = request.collaborator_list
    await read_details(client, request.owner, request.name, reading, progress=progress, listing=listing)
    outcome.window = reading.window_issues()
    if not outcome.window and (others := reading.others_markers()):
        outcome.warnings.append(notes.markers_by_others(reading.settings.assistant.login, others))
    # rules.md: every marker that does not parse is named, even when its issue is not learned from.
    outcome.warnings.extend(reading.marker_warnings())
    for read in outcome.window:
        if read.truncated:
            outcome.warnings.append(
                f"#{read.issue.number}: timeline longer than the cap; later events not read"
            )
    known = outcome.permissions = reading.known_permissions()
    for read in outcome.window:
        assert read.first is not None
        reactors = outcome.reactions[read.first.node_id] = reading.reactions_on(read.first.node_id)
        outcome.corrections.append(correct(read.issue, read.first, reactors, reading.settings, known))
    if outcome.learnings is not None:
        prefix = f"{request.base_ref}:"
        exists = {key.removeprefix(prefix): value for key, value in reading.paths_found().items()}
        outcome.stale_learnings = stale_by_anchors(outcome.learnings.learnings, exists)
    reading.mark_unknown_permissions()
    outcome.missing = set(reading.missing)
    outcome.note = notes.joined(reading.note(), bounded)
    outcome.page_sizes = reading.sizes
    return outcome


async def _details_round(
    client: GitHubClient,
    owner: str,
    name: str,
    reading: Reading,
    asked: DetailsRequest,
    *,
    progress: Progress,
) -> DetailsResult:
    """One details round; with timeline pages in it, asked again smaller while GitHub cannot answer it."""
    if not asked.timelines:
        # Only timeline pages get smaller: without them the same query would be sent again.
        return await fetch_details(client, owner, name, asked)

    async def send(sizes: PageSizes, shrinkable: bool) -> DetailsResult:
        return await fetch_details(
            client, owner, name, asked, timeline_size=sizes.timeline, shrinkable=shrinkable
        )

    details, _sizes = await ask_smaller(
        reading.sizes, send, what="details query", told=progress, keep=reading.use_sizes
    )
    return details


async def _chunk(
    client: GitHubClient,
    owner: str,
    name: str,
    reading: Reading,
    asked: DetailsRequest,
    *,
    gate: asyncio.Semaphore,
    progress: Progress,
) -> DetailsResult | GitHubError:
    """One request of a details round (at most DETAILS_IN_FLIGHT at a time); GitHub's failure is
    given back, so the round's other requests are kept."""
    async with gate:
        try:
            return await _details_round(client, owner, name, reading, asked, progress=progress)
        except GitHubError as error:
            return error


async def read_details(
    client: GitHubClient,
    owner: str,
    name: str,
    reading: Reading,
    *,
    progress: Progress,
    listing: bool = False,
) -> None:
    """Details rounds until the reading needs nothing more or a cap is reached; failures go to its `missing`.

    A round of more than MAX_NODE_IDS analyses, bodies or timelines (a month's) is several requests,
    sent side by side, each shrunk alone by `ask_smaller` when GitHub cannot answer it.

    Before each GraphQL round, REST is asked (concurrently, `_Lookups`) for the people whose
    permission decides a rule and is not known yet; after the last round, for those it revealed.
    So the look-ups never wait for a GraphQL round of their own: the common case is the scan page
    and one wave of details and look-ups, a 👎 from someone seen nowhere else one wave more.
    The cap on rounds grows as timeline pages shrink, so the same items can be read.
    With `listing`, REST's collaborator list is asked once, when someone's permission is first
    wanted: given, it answers for everyone; refused, the look-ups go on one by one.
    """
    rounds = 0
    lookups = _Lookups(client, owner, name, reading, progress, listing=listing)
    gate = asyncio.Semaphore(DETAILS_IN_FLIGHT)
    while True:
        wanted = reading.rest_wanted()
        await lookups.read_list(wanted)
        lookups.start(wanted)
        details_request = reading.next_request()
        if details_request.empty:
            break
        if rounds >= MAX_DETAIL_ROUNDS * FULL_PAGE // reading.sizes.timeline:
            reading.record_missing({"timelines"}, {notes.CAPS_REACHED})
            break
        chunks = details_request.chunks()
        answers = await asyncio.gather(
            *(_chunk(client, owner, name, reading, chunk, gate=gate, progress=progress) for chunk in chunks)
        )
        rounds += 1
        failed = False
        for chunk, details in zip(chunks, answers, strict=True):
            if isinstance(details, GitHubError):
                # GitHub is failing: what is in flight is kept, nothing more is asked (queries/permissions.py).
                reading.details_failed(chunk, details.category)
                failed = True
            elif reading.add_details(chunk, details):
                progress("GraphQL may not list collaborators here: reading permissions through REST")
        if failed:
            break
    await lookups.finish()


class _Lookups:
    """REST permission look-ups in flight beside the GraphQL rounds, at most `MAX_REST_LOOKUPS` a run."""

    def __init__(
        self,
        client: GitHubClient,
        owner: str,
        name: str,
        reading: Reading,
        progress: Progress,
        *,
        listing: bool,
    ) -> None:
        self._client, self._owner, self._name = client, owner, name
        self._reading, self._progress = reading, progress
        self._list_wanted = listing  # REST's collaborator list: asked once, when a permission is wanted
        self._listed: CollaboratorList | None = None
        self._asked = 0
        self._over_cap = False  # the cap left someone unasked (GraphQL's list may still answer)
        self._tasks: list[tuple[list[str], asyncio.Task[tuple[dict[str, str], list[str], set[str]]]]] = []

    async def read_list(self, logins: list[str]) -> None:
        """REST's collaborator list, asked the first time `logins` is not empty (when asked for)."""
        if not self._list_wanted or not logins:
            return
        self._list_wanted = False
        self._listed = await read_collaborator_list(self._client, self._owner, self._name)
        if self._listed is not None:
            cut = "" if self._listed.complete else " (cut at its page cap: the others asked one by one)"
            self._progress(f"the collaborator list: {len(self._listed.levels)} people{cut}")
            self._reading.collaborators_listed(True)

    def start(self, logins: list[str]) -> None:
        """Ask REST about `logins` now, without waiting; each login is asked once a run.

        Those the collaborator list answers are answered at once. Past the cap the rest stay
        unasked: a GraphQL round may still ask its collaborator list.
        """
        if self._listed is not None:
            found, logins = self._listed.answer(logins)
            if found:
                self._reading.add_rest_permissions(found, found, [], ())
        room = max(0, MAX_REST_LOOKUPS - self._asked)
        if len(logins) > room:
            self._over_cap = True
        logins = logins[:room]
        if not logins:
            return
        self._progress(f"{len(logins)} people whose permission decides a rule: asking REST for it")
        self._asked += len(logins)
        self._reading.start_asking(logins)
        self._tasks.append((logins, asyncio.create_task(self._ask(logins))))

    async def _ask(self, logins: list[str]) -> tuple[dict[str, str], list[str], set[str]]:
        failures: set[str] = set()
        found, unknown = await fetch_permissions_rest(
            self._client, self._owner, self._name, logins, failures=failures
        )
        return found, unknown, failures

    async def finish(self) -> None:
        """Wait for every look-up started and give the reading what each found."""
        for logins, task in self._tasks:
            self._reading.add_rest_permissions(logins, *await task)
        self._tasks.clear()
        if self._over_cap and self._reading.needed_logins() - set(self._reading.known_permissions()):
            self._reading.lookups_capped()
