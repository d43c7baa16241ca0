"""`learnings sync`: commands and 👍-accepted proposals into ONE open pull request, never the default branch.

One run reads, in bounded round trips (queries.sync_fetch): where it writes (SyncTarget), the
issues and pull requests active since the last sync with their newest comments (LearningSources,
at most `max_pages` pages), the 👍/👎 on proposals, and the permissions of the people involved.
"Since the last sync" comes from the learnings already recorded: a comment that is the source of a
learning on the default branch or on the open sync branch is never recorded again, and the scan
stops at items older than the newest recorded learning minus `lookback` (so a 👍 given some days
after a sync is still seen).

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
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from assistant.config import Config
from assistant.identity import Identity, is_account, normalize_login
from learnings.gather import Candidate, Found, decide, find_sources
from learnings.model import Learning
from learnings.pull_body import TITLE, commit_message, pull_body
from learnings.record import Recorded, record
from learnings.store import LoadedLearnings, parse_jsonl, to_line
from queries.client import GitHubClient
from queries.errors import GitHubError, WriteRefused
from queries.models import Blob
from queries.permissions import fetch_permissions
from queries.retry import RetryPolicy
from queries.sync_fetch import (
    Reactors,
    SyncTarget,
    fetch_proposal_reactions,
    fetch_sync_target,
    fetch_threads,
)
from queries.sync_models import PullRef
from queries.write import MAX_MUTATIONS, MIN_INTERVAL, PULL_REQUESTS_NOT_PERMITTED, STALE_DATA, Writer

BRANCH = "assistant/learnings"
LOOKBACK = timedelta(days=30)
MAX_PAGES = 5


class SyncError(Exception):
    """The sync could not finish; the message is one line for the user (fixed words and numbers)."""


@dataclass(frozen=True)
class SyncOptions:
    """What one run does, and the clocks and pauses tests replace."""

    owner: str
    name: str
    api_url: str
    token: str
    config: Config = field(default_factory=Config)
    branch: str = BRANCH
    max_pages: int = MAX_PAGES
    lookback: timedelta = LOOKBACK
    max_mutations: int = MAX_MUTATIONS
    min_interval: float = MIN_INTERVAL
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


def _store_text(blob: Blob | None, where: str) -> str:
    """The text of a store file read through GitHub ("" when there is none)."""
    if blob is None:
        return ""
    if blob.is_binary or blob.text is None:
        raise SyncError(f"the learnings file on {where} is not text; fix it before syncing")
    if blob.is_truncated:
        raise SyncError(f"the learnings file on {where} is too large to read through GitHub")
    return blob.text


def _sourced(learnings: tuple[Learning, ...]) -> set[int]:
    return {learning.source.comment for learning in learnings if learning.source.comment is not None}


@dataclass(frozen=True)
class SyncPulls:
    """The open pull requests from a branch of the sync branch's name: the sync's own, and others."""

    own: PullRef | None
    forks: tuple[PullRef, ...]  # from another repository's branch of that name
    others_here: tuple[PullRef, ...]  # from this repository's sync branch, opened by someone else


def own_pull(target: SyncTarget) -> SyncPulls:
    """Which open pull request is the sync's own: head in this repository, author the token's account.

    Neither the branch name nor the base is proof: `pullRequests(headRefName:)` also matches pull
    requests from forks, opened by anyone, and anyone with push access may open one from the branch.
    """
    me = Identity.of_viewer(target.viewer)
    own: list[PullRef] = []
    forks: list[PullRef] = []
    others: list[PullRef] = []
    for pull in target.pulls:
        head = pull.head_repository
        here = (
            not pull.is_cross_repository
            and head is not None
            and head.name_with_owner.casefold() == target.name_with_owner.casefold()
        )
        if not here:
            forks.append(pull)
        elif is_account(pull.author, me):
            own.append(pull)
        else:
            others.append(pull)
    return SyncPulls(own=own[0] if own else None, forks=tuple(forks), others_here=tuple(others))


def _foreign_notes(pulls: SyncPulls, branch: str) -> list[str]:
    return [
        f"pull request #{pull.number} comes from a branch named {branch} in another repository "
        "(a fork); it is not the sync's own and was ignored"
        for pull in pulls.forks
    ]


@dataclass(frozen=True)
class _State:
    """The target as read, with both stores parsed, and the sync's own open pull request if any."""

    target: SyncTarget
    base_text: str
    base: LoadedLearnings
    working_text: str  # the store as the sync branch will build on
    working: LoadedLearnings
    pull: PullRef | None  # the sync's own open pull request
    on_branch: bool  # its own open pull request exists: build on its branch


def _state(target: SyncTarget, store_path: str) -> _State:
    pulls = own_pull(target)
    if pulls.own is None and pulls.others_here:
        other = pulls.others_here[0]
        who = f"@{other.author.login}" if other.author is not None else "a deleted account"
        raise SyncError(
            f"pull request #{other.number} by {who} is open from {target.branch} and is not the sync's "
            "own; nothing was written (close it, or sync with a token of that account)"
        )
    base_text = _store_text(target.base_file, target.default_branch)
    base = parse_jsonl(base_text, source=f"{target.default_branch}:{store_path}")
    on_branch = pulls.own is not None and target.branch_head is not None
    if on_branch:
        working_text = _store_text(target.branch_file, target.branch)
        working = parse_jsonl(working_text, source=f"{target.branch}:{store_path}")
    else:
        working_text, working = base_text, base
    return _State(target, base_text, base, working_text, working, pulls.own, on_branch)


def _skipped_lines(state: _State) -> list[str]:
    """The warnings of the store's lines that were skipped (they stay in the file as they are)."""
    warnings = list(state.base.warnings)
    if state.on_branch:
        warnings += state.working.warnings
    return warnings


def _since(state: _State, lookback: timedelta) -> datetime | None:
    created = [
        learning.createdAt
        for learning in (*state.base.learnings, *state.working.learnings)
        if learning.source.comment is not None
    ]
    return max(created) - lookback if created else None


def _differs(state: _State, text: str) -> tuple[Learning, ...]:
    """The learnings of the branch's store that are new or changed against the default branch."""
    base = {learning.id: to_line(learning) for learning in state.base.learnings}
    loaded = parse_jsonl(text, source="branch")
    return tuple(learning for learning in loaded.learnings if base.get(learning.id) != to_line(learning))


async def _gather(
    client: GitHubClient, options: SyncOptions, state: _State
) -> tuple[Found, list[Candidate], list[str]]:
    """Read what is new and decide it: (found, candidates, notes)."""
    config = options.config
    recorded = _sourced(state.base.learnings) | _sourced(state.working.learnings)
    scan = await fetch_threads(
        client,
        options.owner,
        options.name,
        since=_since(state, options.lookback),
        max_pages=options.max_pages,
    )
    found = find_sources(scan.threads, recorded, config.assistant.identity, config.assistant.command)
    notes = list(found.notes)
    if found.proposals and not config.learnings.implicit_capture:
        # The maintainers turned proposals off: only their own commands are recorded.
        notes.append(
            f"{len(found.proposals)} learning proposal(s) not recorded: [learnings] implicit_capture = false"
        )
        found.proposals.clear()
    if not scan.complete:
        notes.append(
            f"the scan stopped at its cap of {scan.pages} pages; older activity was not read (see --max-pages)"
        )
    reactors: dict[str, Reactors] = {}
    if found.proposals:
        reactors = await fetch_proposal_reactions(client, [p.node_id for p in found.proposals])
    logins = found.logins(reactors)
    levels: dict[str, str] = {}
    if logins:
        permissions, _unknown = await fetch_permissions(client, options.owner, options.name, logins)
        levels = {normalize_login(login): level for login, level in permissions.items()}
    candidates, decided_notes = decide(found, reactors, levels)
    return found, candidates, notes + decided_notes


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
            state = _state(target, store_path)
            _found, candidates, notes = await _gather(client, options, state)
            notes[:0] = [*_foreign_notes(own_pull(target), target.branch), *_skipped_lines(state)]
        except GitHubError as error:
            raise SyncError(
                f"could not read {options.owner}/{options.name} from GitHub: {error.category}"
            ) from error
        now = options.now()
        recorded = record(state.working_text, state.working.learnings, candidates, now)
        notes += recorded.notes
        if not recorded.changed:
            return SyncResult(outcome="nothing-new", notes=tuple(notes))
        # Mutations are never retried blindly (a retried createRef or createPullRequest could act
        # twice); STALE_DATA has its own re-read and retry below.
        async with GitHubClient(
            options.api_url, options.token, policy=RetryPolicy(max_attempts=1)
        ) as write_client:
            writer = Writer(
                write_client,
                min_interval=options.min_interval,
                max_mutations=options.max_mutations,
                sleep=options.sleep,
                clock=options.clock,
            )
            publish = _Publish(options, client, writer, state, candidates, now, store_path)
            try:
                return await publish.run(recorded, tuple(notes))
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


@dataclass
class _Publish:
    """The writing half of a run: branch, one commit, the pull request; undone on failure."""

    options: SyncOptions
    client: GitHubClient
    writer: Writer
    state: _State
    candidates: list[Candidate]
    now: datetime
    store_path: str

    async def run(self, recorded: Recorded, notes: tuple[str, ...]) -> SyncResult:
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
            text = _store_text(fresh.branch_file, fresh.branch)
            loaded = parse_jsonl(text, source=f"{fresh.branch}:{self.store_path}")
            done = _sourced(loaded.learnings)
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
            _differs(self.state, text),
            repository_url=target.url,
            store_path=self.store_path,
            command=config.assistant.command,
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
