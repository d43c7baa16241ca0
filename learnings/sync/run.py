"""`learnings sync`: commands and 👍-accepted proposals into ONE open pull request, never the default branch.

One run reads, in bounded round trips (queries.sync_fetch): where it writes (SyncTarget), the
issues and pull requests active since the last sync with their newest comments (LearningSources,
page after page until it reaches what the last sync read, or its points budget), the 👍/👎 on
proposals, and the permissions of the people involved. "Since the last sync" is a high-water mark
that GitHub keeps: the sync's own pull request's body says how far the scan read
(learnings.sync.marks); without one (none open or merged), the newest recorded learning minus
`lookback`. A comment that is the source of a learning on the default branch or on the open sync
branch is never recorded again. A run that its budget ends says what it left, and moves the mark
only as far as it read: the next run goes on from there, so nothing is skipped.

Then it writes at most one commit (queries.write.Writer: mutations spaced and capped):

- its own open pull request from `assistant/learnings` exists: commit on that branch, update its body;
- no branch: create it at the default branch's head, commit, open the pull request;
- the branch is left from a finished pull request: move it to the default branch's head first.

Its own pull request is one it opened itself (`own_pull`): the head branch is in this repository
(not a fork) and its author is the token's own account (`viewer`, read in the same request). A
pull request by anyone else with that branch name is never adopted, updated or committed to: one
from a fork is ignored with a note; one from the branch in this repository stops the run before
anything is written (moving the branch would change that person's pull request).

The commit names the head it expects; on STALE_DATA the target is read again, the candidates are
recorded again on the branch as it is now (sources recorded meanwhile drop out), and the commit is
retried once. When opening the pull request is refused because the repository does not let the
workflow token open pull requests, the branch is put back as it was (deleted when this run created
it) and the run fails with one line: nothing is left behind.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from assistant.config import Config
from assistant.identity import normalize_login
from learnings.rules.model import Learning
from learnings.store.jsonl import parse_jsonl
from learnings.sync.answers import ANSWERS, REFUSED, Answer, answers, give, kept_owed, read_by_id
from learnings.sync.gather import Candidate, Found, decide, find_sources
from learnings.sync.marks import MAX_PENDING, left_note
from learnings.sync.pull_body import TITLE, commit_message, pull_body
from learnings.sync.record import Recorded, record
from learnings.sync.recurring import Recurring, recurring_candidates
from learnings.sync.target import (
    State,
    SyncError,
    differs,
    foreign_notes,
    own_pull,
    read_state,
    sourced,
    start_marks,
    store_text,
    unread,
)
from queries.client import GitHubClient
from queries.errors import GitHubError, WriteRefused
from queries.permissions import fetch_permissions
from queries.retry import RetryPolicy
from queries.sync_fetch import (
    Marks,
    Reactors,
    Scan,
    Thread,
    fetch_pending,
    fetch_proposal_reactions,
    fetch_sync_target,
    fetch_threads,
)
from queries.write import (
    MAX_ANSWERS,
    MAX_MUTATIONS,
    MIN_INTERVAL,
    PULL_REQUESTS_NOT_PERMITTED,
    STALE_DATA,
    Writer,
    write_budget,
)

__all__ = ["SyncError", "SyncOptions", "SyncResult", "run_sync"]

BRANCH = "assistant/learnings"
LOOKBACK = timedelta(days=30)
# GraphQL points one run may spend reading: a workflow token has 1,000 an hour per repository.
BUDGET = 200
# Points kept back from the scan for what follows it (reactions, permissions, the target again).
RESERVE = 10


@dataclass(frozen=True)
class SyncOptions:
    """What one run does, and the clocks and pauses tests replace."""

    owner: str
    name: str
    api_url: str
    token: str
    config: Config = field(default_factory=Config)
    branch: str = BRANCH
    budget: int = BUDGET
    max_pages: int | None = None
    lookback: timedelta = LOOKBACK
    max_mutations: int = MAX_MUTATIONS
    max_answers: int = MAX_ANSWERS
    min_interval: float = MIN_INTERVAL
    write_budget: float | None = None  # seconds (by `clock`) for the writes; None: write_budget()
    recurring: tuple[Recurring, ...] = ()  # decisions made again and again: proposed in the pull request
    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    clock: Callable[[], float] = time.monotonic
    now: Callable[[], datetime] = lambda: datetime.now(UTC)
    read_policy: RetryPolicy = field(default_factory=RetryPolicy)


@dataclass(frozen=True)
class SyncResult:
    """What a run did."""

    outcome: Literal["recorded", "nothing-new"]
    recorded: tuple[Learning, ...] = ()
    pull_number: int | None = None
    pull_url: str | None = None
    notes: tuple[str, ...] = ()
    mutations: tuple[str, ...] = ()
    points: int = 0  # GraphQL points the run's reads cost
    requests: int = 0  # GraphQL and REST requests it sent (mutations included)
    marks: Marks = field(default_factory=Marks)  # how far the scan read
    left: str | None = None  # what the budget left for the next run
    owed: int = 0  # answers to commands owed to the next run (it gives them first)


@dataclass
class _Gathered:
    """What the reading half of a run found: candidates, notes, and how far the scan read."""

    found: Found
    candidates: list[Candidate]
    notes: list[str]
    marks: Marks
    left: str | None
    owed: list[Answer]  # answers to commands still to give


@dataclass(frozen=True)
class _Again:
    """What the last sync asked to read again: comments that may hold sources, answers owed."""

    sources: tuple[Thread, ...]
    owed: list[Answer]


async def _read_again(
    client: GitHubClient, start: Marks, scan: Scan, *, told: Callable[[str], None]
) -> _Again:
    """The comments the marks list that the scan did not read, read by id (PendingComments), and the
    owed answers that nobody gave since (the token's own reaction on the comment says so)."""
    reactions = {
        comment.id: comment.viewer_reactions for thread in scan.threads for comment in thread.comments
    }
    wanted = dict.fromkeys([*start.pending, *(node for node, _ in start.answers)])
    ids = [node for node in wanted if node not in reactions]
    reread = (
        {read_by_id(thread).id: thread for thread in await fetch_pending(client, ids, told=told)}
        if ids
        else {}
    )
    reactions |= {node: read_by_id(thread).viewer_reactions for node, thread in reread.items()}
    sources = tuple(reread[node] for node in start.pending if node in reread)
    owed = [
        Answer(node, content)
        for node, content in start.answers
        if node in reactions and not reactions[node] & ANSWERS
    ]
    return _Again(sources, owed)


def _skipped_lines(state: State) -> list[str]:
    """The warnings of the store's lines that were skipped (they stay in the file as they are)."""
    return [*state.base.warnings, *(state.working.warnings if state.on_branch else ())]


async def _gather(client: GitHubClient, options: SyncOptions, state: State) -> _Gathered:
    """Read what is new and decide it."""
    config = options.config
    recorded = sourced(state.base.learnings) | sourced(state.working.learnings)
    shrinks: list[str] = []
    start = start_marks(state, options.lookback, options.now())
    scan = await fetch_threads(
        client,
        options.owner,
        options.name,
        marks=start,
        points=max(0, options.budget - client.usage.points - RESERVE),
        max_pages=options.max_pages,
        told=shrinks.append,
        unmarked={pull.number for pull in (*state.target.pulls, *state.target.merged)},
    )
    again = await _read_again(client, start, scan, told=shrinks.append)
    threads = (*scan.threads, *again.sources)
    found = find_sources(threads, recorded, config.assistant.identity, config.assistant.command)
    notes = shrinks + list(scan.notes) + list(found.notes)
    if found.proposals and not config.learnings.implicit_capture:
        # The maintainers turned proposals off: only their own commands are recorded.
        notes.append(
            f"{len(found.proposals)} learning proposal(s) not recorded: [learnings] implicit_capture = false"
        )
        found.proposals.clear()
    left = None if scan.complete else left_note(scan, options.budget, options.max_pages)
    if left is not None:
        notes.append(left)
    reactors: dict[str, Reactors] = {}
    if found.proposals:
        reactors = await fetch_proposal_reactions(
            client, [p.node_id for p in found.proposals], told=notes.append
        )
    logins = found.ordered_logins(reactors, again.sources, refused=REFUSED)
    levels: dict[str, str] = {}
    if logins:
        permissions, _unknown = await fetch_permissions(client, options.owner, options.name, logins)
        levels = {normalize_login(login): level for login, level in permissions.items()}
    candidates, decided_notes, waiting = decide(found, reactors, levels, config.assistant.identity)
    owed = answers(found, candidates, levels, again.owed)
    candidates += recurring_candidates(options.recurring, state.base.learnings, state.working.learnings)
    # Read again by id next run, as nothing may move their thread past the mark: proposals waiting
    # for a 👍 and commands whose author's permission could not be read.
    pending = tuple(
        dict.fromkeys(
            [
                *(proposal.node_id for proposal in waiting),
                *(c.node_id for c in found.commands if c.node_id and normalize_login(c.author) not in levels),
            ]
        )
    )
    owing = kept_owed(owed, start.answers)
    for what, count in (("comment(s) to read again", len(pending)), ("answer(s)", len(owing))):
        if count > MAX_PENDING:
            decided_notes.append(f"{count - MAX_PENDING} {what} dropped: at most {MAX_PENDING} are kept")
    marks = replace(scan.marks, pending=pending[-MAX_PENDING:], answers=owing[:MAX_PENDING])
    return _Gathered(found, candidates, notes + decided_notes, marks, left, owed)


async def run_sync(options: SyncOptions) -> SyncResult:
    """One sync. Raises SyncError (one line) when it cannot finish; then nothing is left half-written."""
    store_path = options.config.learnings.file
    async with GitHubClient(options.api_url, options.token, policy=options.read_policy) as client:
        try:
            target = await fetch_sync_target(
                client, options.owner, options.name, branch=options.branch, store_path=store_path
            )
            if options.branch == target.default_branch:
                raise SyncError("the sync branch is the default branch; nothing is written there")
            state = read_state(target, store_path)
            gathered = await _gather(client, options, state)
        except GitHubError as error:
            raise SyncError(unread(options.owner, options.name, error.category)) from error
        candidates = gathered.candidates
        notes = [*foreign_notes(own_pull(target), target.branch), *_skipped_lines(state), *gathered.notes]
        now = options.now()
        recorded = record(state.working_text, state.working.learnings, candidates, now)
        notes += recorded.notes
        keeps_marks, owed = state.pull is not None and state.on_branch, gathered.owed
        if not recorded.changed and not keeps_marks and not owed:
            # Nowhere to keep the marks: the next run reads from the old ones again.
            return _result(client, SyncResult(outcome="nothing-new", notes=tuple(notes)), gathered)
        budget = write_budget(options.max_mutations, options.max_answers, options.min_interval)
        # Mutations are never retried blindly (a retried createRef or createPullRequest could act
        # twice); STALE_DATA has its own re-read and retry below.
        async with GitHubClient(
            options.api_url, options.token, policy=RetryPolicy(max_attempts=1, total_budget=budget)
        ) as write_client:
            writer = Writer(
                write_client,
                min_interval=options.min_interval,
                max_mutations=options.max_mutations,
                max_answers=options.max_answers,
                sleep=options.sleep,
                clock=options.clock,
                budget=options.write_budget or budget,
            )
            result = SyncResult(outcome="nothing-new", notes=tuple(notes))
            if recorded.changed or keeps_marks:
                publish = _Publish(options, client, writer, state, candidates, now, store_path, gathered)
                result = await _published(publish, recorded, tuple(notes))
            # Answered only once the learnings are in the pull request: a failed write raised above.
            # The mark lists all owed; the next run gives only those without the token's reaction.
            still = await give(writer, owed)
            result = replace(result, mutations=tuple(writer.names), owed=len(still))
            return _result(client, result, gathered, write_client.usage.requests)


async def _published(publish: _Publish, recorded: Recorded, notes: tuple[str, ...]) -> SyncResult:
    """The writing half, its failures as one line each (nothing is left half-written)."""
    options = publish.options
    try:
        return await publish.run(recorded, notes)
    except WriteRefused as error:
        if error.error_type == PULL_REQUESTS_NOT_PERMITTED:
            raise SyncError(
                f"{options.owner}/{options.name} does not allow GitHub Actions to create pull "
                "requests (Settings > Actions > General > Workflow permissions); nothing was written"
            ) from error
        raise SyncError(
            f"GitHub refused to write the learnings ({error.error_type}); nothing was left half-written"
        ) from error
    except GitHubError as error:
        raise SyncError(
            f"could not write the learnings to GitHub: {error.category}; nothing was left half-written"
        ) from error


def _result(client: GitHubClient, result: SyncResult, gathered: _Gathered, writes: int = 0) -> SyncResult:
    """The result with what the run cost and how far it read."""
    return replace(
        result,
        points=client.usage.points,
        requests=client.usage.requests + writes,
        marks=gathered.marks,
        left=gathered.left,
    )


@dataclass
class _Publish:
    """The writing half of a run: branch, one commit, the pull request; undone on failure."""

    options: SyncOptions
    client: GitHubClient
    writer: Writer
    state: State
    candidates: list[Candidate]
    now: datetime
    store_path: str
    gathered: _Gathered

    async def run(self, recorded: Recorded, notes: tuple[str, ...]) -> SyncResult:
        if not recorded.changed:
            # Nothing new: only the body of its own pull request moves on to the new marks.
            number, url = await self._pull(self.state.working_text)
            return SyncResult(
                outcome="nothing-new",
                pull_number=number,
                pull_url=url,
                notes=notes,
                mutations=tuple(self.writer.names),
            )
        target = self.state.target
        ref_id = target.branch_ref_id
        created = False
        reset_from: str | None = None
        if self.state.on_branch:
            head = target.branch_head
        elif ref_id is None:
            made = await self.writer.create_ref(target.repository_id, target.branch, target.default_head)
            ref_id, head, created = made.id, target.default_head, True
        else:
            # Left from a merged or closed pull request: start again from the default branch.
            reset_from = target.branch_head
            await self.writer.update_ref(ref_id, target.default_head, force=True)
            head = target.default_head
        assert head is not None
        try:
            text, changed = await self._commit(head, recorded)
            pull_number, pull_url = await self._pull(text)
        except BaseException:
            await self._undo(ref_id, created, reset_from)
            raise
        return SyncResult(
            outcome="recorded" if changed else "nothing-new",
            recorded=changed,
            pull_number=pull_number,
            pull_url=pull_url,
            notes=notes,
            mutations=tuple(self.writer.names),
        )

    async def _commit(self, head: str, recorded: Recorded) -> tuple[str, tuple[Learning, ...]]:
        """Commit the store; on STALE_DATA read the branch again, record again, retry once."""
        options = self.options
        name_with_owner = f"{options.owner}/{options.name}"
        for attempt in (1, 2):
            headline, body = commit_message(recorded.changed)
            try:
                await self.writer.create_commit(
                    name_with_owner,
                    self.state.target.branch,
                    expected_head=head,
                    headline=headline,
                    body=body,
                    files={self.store_path: recorded.text},
                )
                return recorded.text, recorded.changed
            except WriteRefused as error:
                if error.error_type != STALE_DATA or attempt == 2:
                    raise
            fresh = await fetch_sync_target(
                self.client, options.owner, options.name, branch=options.branch, store_path=self.store_path
            )
            if fresh.branch_head is None:
                raise WriteRefused("the sync branch disappeared while writing", error_type=STALE_DATA)
            head = fresh.branch_head
            text = store_text(fresh.branch_file, fresh.branch)
            loaded = parse_jsonl(text, source=f"{fresh.branch}:{self.store_path}")
            done = sourced(loaded.learnings)
            left = [c for c in self.candidates if c.source.comment not in done]
            recorded = record(text, loaded.learnings, left, self.now)
            if not recorded.changed:
                return text, ()
        raise AssertionError("unreachable")  # pragma: no cover

    async def _pull(self, text: str) -> tuple[int | None, str | None]:
        """Open the pull request, or update the open one's body."""
        target = self.state.target
        config = self.options.config
        body = pull_body(
            differs(self.state, text),
            repository_url=target.url,
            store_path=self.store_path,
            command=config.assistant.command,
            marks=self.gathered.marks,
            left=self.gathered.left,
        )
        own = self.state.pull
        if own is not None:
            if own.body != body:
                await self.writer.update_pull_request(own.id, body)
            return own.number, own.url
        pull = await self.writer.create_pull_request(
            target.repository_id, target.default_branch, target.branch, TITLE, body
        )
        return pull.number, pull.url

    async def _undo(self, ref_id: str | None, created: bool, reset_from: str | None) -> None:
        """Put the branch back as it was before this run (best effort: the error in flight wins)."""
        if ref_id is None or not (created or reset_from):
            return
        try:
            if created:
                await self.writer.delete_ref(ref_id, undo=True)
            elif reset_from is not None:
                await self.writer.update_ref(ref_id, reset_from, force=True, undo=True)
        except GitHubError:
            pass
