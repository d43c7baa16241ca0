"""The details rounds after the scan: what the reading still needs, asked until nothing is missing.

Each round is one or more `CorrectionDetails` requests (the 👎 on the window's analyses, bodies,
timeline pages, GraphQL's collaborator list), with REST look-ups of permissions beside them. A
round GitHub fails leaves its parts missing (the reading's note says so), never an exception.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from corrections.read import notes
from corrections.read.lookup_order import Signals
from corrections.read.reading import Reading
from queries.client import GitHubClient
from queries.errors import GitHubError
from queries.fetch import DetailsResult, fetch_details
from queries.page_sizes import FULL_PAGE, PageSizes, ask_smaller
from queries.permissions import (
    MAX_REST_LOOKUPS,
    CollaboratorList,
    fetch_permissions_rest,
    read_collaborator_list,
)
from queries.requests import DetailsRequest

MAX_DETAIL_ROUNDS = 6
# Look-ups of a run kept for the people the reading favours (Signals.favoured): a crowd of
# strangers' 👎 read first takes at most the rest of the cap.
FAVOURED_RESERVE = 10
DETAILS_IN_FLIGHT = 4  # the requests of one details round sent at the same time
Progress = Callable[[str], None]


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
    viewer: str | None = None,
    beside: Coroutine[Any, Any, None] | None = None,
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
    wanted: given, it answers for everyone it lists (and for the others too when it lists
    `viewer`, the token's account, as a pusher: queries.permissions); refused, the look-ups go on
    one by one. `beside` (the horizon's scan page) is sent with the first round, before its
    requests (it is the longest of the wave), so it adds no wave.
    """
    rounds = 0
    lookups = _Lookups(client, owner, name, reading, progress, listing=listing, viewer=viewer)
    gate = asyncio.Semaphore(DETAILS_IN_FLIGHT)
    while True:
        wanted = reading.rest_wanted()
        await lookups.read_list(wanted)
        lookups.start(wanted)
        details_request = reading.next_request()
        if details_request.empty:
            # Every 👎 is read: the look-ups kept for the favoured go to whoever is left.
            lookups.start(reading.rest_wanted(), reserve=0)
            break
        if rounds >= MAX_DETAIL_ROUNDS * FULL_PAGE // reading.sizes.timeline:
            reading.record_missing({"timelines"}, {notes.CAPS_REACHED})
            break
        chunks = details_request.chunks()
        # The horizon's page is scheduled before the round's requests: the longest request of the
        # wave (100 issues with their timelines) leaves first, not after gql's first query is built.
        horizon = None if beside is None else asyncio.ensure_future(beside)
        beside = None
        sent = asyncio.gather(
            *(_chunk(client, owner, name, reading, chunk, gate=gate, progress=progress) for chunk in chunks)
        )
        if horizon is None:
            answers = await sent
        else:
            answers, _ = await asyncio.gather(sent, horizon)
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
    if beside is not None:
        await beside  # no round was needed: the page alone
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
        viewer: str | None = None,
    ) -> None:
        self._client, self._owner, self._name = client, owner, name
        self._reading, self._progress = reading, progress
        self._list_wanted = listing  # REST's collaborator list: asked once, when a permission is wanted
        self._listed: CollaboratorList | None = None
        self._viewer = viewer
        self._asked = 0
        self._others_asked = 0  # of them, people the reading does not favour
        self._over_cap = False  # the cap left someone unasked (GraphQL's list may still answer)
        self._tasks: list[tuple[list[str], asyncio.Task[tuple[dict[str, str], list[str], set[str]]]]] = []

    async def read_list(self, logins: list[str]) -> None:
        """REST's collaborator list, asked the first time `logins` is not empty (when asked for)."""
        if not self._list_wanted or not logins:
            return
        self._list_wanted = False
        listed = await read_collaborator_list(self._client, self._owner, self._name)
        self._listed = listed.proven_by(self._viewer) if listed is not None else None
        if self._listed is not None:
            cut = "" if self._listed.complete else " (cut at its page cap: the others asked one by one)"
            self._progress(f"the collaborator list: {len(self._listed.levels)} people{cut}")
            self._reading.collaborators_listed(True)

    def start(self, logins: list[str], *, reserve: int = FAVOURED_RESERVE) -> None:
        """Ask REST about `logins` now, without waiting; each login is asked once a run.

        Those the collaborator list answers are answered at once. Past the cap the rest stay
        unasked: a GraphQL round may still ask its collaborator list. `reserve` look-ups of the
        cap stay for the people the reading favours (a 👎 on a later page); the last wave gives
        them to anyone.
        """
        if self._listed is not None:
            found, logins = self._listed.answer(logins)
            if found:
                self._reading.add_rest_permissions(found, found, [], ())
        favoured = Signals.of(self._reading).favoured()
        room = max(0, MAX_REST_LOOKUPS - self._asked)
        others_room = max(0, MAX_REST_LOOKUPS - reserve - self._others_asked)
        chosen: list[str] = []
        for login in logins:
            if len(chosen) >= room:
                break
            if login in favoured:
                chosen.append(login)
            elif others_room:
                chosen.append(login)
                others_room -= 1
                self._others_asked += 1
        if len(chosen) < len(logins):
            self._over_cap = True
        logins = chosen
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
