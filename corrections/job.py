"""One run of the correction reader: the round trips, then the rules. The only async code here.

A failing GitHub never raises out of `read_corrections`: what could not be read becomes a note.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from assistant.config import Config
from assistant.identity import normalize_login
from corrections import notes
from corrections.base_files import read_base_files
from corrections.models import AnalysedIssue, IssueCorrection
from corrections.reading import IssueRead, Reading
from corrections.rules import RuleSettings, correct
from corrections.vocabulary import Vocabulary, parse_vocabulary
from learnings.staleness import anchors, stale_by_anchors
from learnings.store import LoadedLearnings, parse_jsonl
from queries.client import GitHubClient, Usage
from queries.errors import GitHubError
from queries.fetch import (
    MAX_REST_LOOKUPS,
    FileRequest,
    fetch_details,
    fetch_permissions_rest,
    fetch_window_page,
)
from queries.page_sizes import FULL_PAGE, PageSizes

MAX_DETAIL_ROUNDS = 6
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
    # The issue being analysed (`--issue N`, the action's event); its text is asked for with the
    # first page when not known already.
    analysed: AnalysedIssue | None = None


_NO_DATE = datetime.min.replace(tzinfo=UTC)


@dataclass
class ReadOutcome:
    """Everything a run produced, for the renderers."""

    repository: str
    config: Config = field(default_factory=Config)  # the configuration in force (the base's, in the action)
    window: list[IssueRead] = field(default_factory=list)
    corrections: list[IssueCorrection] = field(default_factory=list)
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    learnings: LoadedLearnings | None = None
    stale_learnings: frozenset[str] = frozenset()
    warnings: list[str] = field(default_factory=list)
    note: str | None = None
    # Parts that could not be read (keys of notes.PARTS); the note names them.
    missing: set[notes.Part] = field(default_factory=set)
    off: bool = False
    failed: bool = False
    failure: str | None = None  # when nothing could be read: the category of GitHub's failure
    usage: Usage = field(default_factory=Usage)
    # How far the scan got: it read every issue, or every issue updated at or after `scanned_through`.
    scan_exhausted: bool = False
    scanned_through: datetime | None = None
    # The page sizes the run ended with: smaller than full pages when GitHub could not answer.
    page_sizes: PageSizes = field(default_factory=PageSizes)
    # The issue being analysed: never one of the corrections, and the one they are ranked against.
    analysed: AnalysedIssue | None = None

    @property
    def learned_from(self) -> list[IssueCorrection]:
        """The window's analyses the context learns from: all but the issue being analysed."""
        number = None if self.analysed is None else self.analysed.number
        return [c for c in self.corrections if c.number != number]

    @property
    def corrected(self) -> list[IssueCorrection]:
        """Corrected issues of the window (the analysed one aside), latest correction first.

        Ties (and corrections whose date is unknown) keep the window's order, newest activity first.
        """
        corrected = [c for c in self.learned_from if c.is_corrected]
        return sorted(corrected, key=lambda c: c.corrected_at or _NO_DATE, reverse=True)


def _settings(config: Config, vocabulary: Vocabulary) -> RuleSettings:
    return RuleSettings(
        assistant=config.assistant.identity,
        command_word=config.assistant.command,
        duplicate_label=config.assistant.duplicate_label,
        vocabulary=vocabulary,
    )


async def read_corrections(client: GitHubClient, request: ReadRequest, progress: Progress) -> ReadOutcome:
    """Read the window and its corrections; GitHub failures end as a note, never an exception.

    Raises ConfigError when the configuration read at the base ref (the action) does not validate.
    """
    config = request.config
    outcome = ReadOutcome(
        repository=f"{request.owner}/{request.name}",
        usage=client.usage,
        config=config,
        analysed=request.analysed,
    )
    ask_analysed = (
        request.analysed.number if request.analysed is not None and request.analysed.title is None else None
    )
    if config.context.max_analyzed == 0:
        outcome.off = True
        outcome.note = notes.OFF
        return outcome
    files = FileRequest(
        ref=request.base_ref,
        labels_path=config.context.labels_file,
        learnings_path=config.learnings.file if config.learnings.enabled else None,
        config_path=request.config_path,
        config_required=request.config_required,
    )
    reading = Reading(settings=_settings(config, Vocabulary()), max_analyzed=config.context.max_analyzed)
    categories: set[str] = set()
    cursor: str | None = None
    page_number = 0
    # The scan reads at most `scan_pages` full pages' worth of issues, whatever its page size (the
    # base branch's configuration, read with the first page, may change `scan_pages`).
    scanned = 0
    while scanned < config.context.scan_pages * FULL_PAGE:
        sizes = reading.sizes
        asked = min(sizes.issues, config.context.scan_pages * FULL_PAGE - scanned)
        try:
            page = await fetch_window_page(
                client,
                request.owner,
                request.name,
                after=cursor,
                files=files if page_number == 0 else None,
                page_size=asked,
                timeline_size=sizes.timeline,
                shrinkable=sizes.can_shrink,
                analysed=ask_analysed if page_number == 0 else None,
            )
        except GitHubError as error:
            if _shrink(reading, error, "scan page", progress):
                continue
            if page_number == 0:
                outcome.failed = True
                outcome.page_sizes = reading.sizes
                outcome.failure = error.category
                outcome.note = notes.failed(error.category)
                return outcome
            reading.missing.add("scan")
            categories.add(error.category)
            break
        page_number += 1
        scanned += asked
        if "issues" in page.failed:  # the files' parts are base_files' to judge
            reading.missing.add("issues")
            categories.add("partial answer")
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
            )
            config = outcome.config = base.config
            outcome.warnings.extend(base.warnings)
            reading.missing.update(base.failed)
            categories.update(base.categories)
            if config.context.max_analyzed == 0:
                outcome.off = True
                outcome.note = notes.OFF_AT_BASE
                return outcome
            reading.max_analyzed = config.context.max_analyzed
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
            reading.settings = _settings(config, outcome.vocabulary)
            if config.learnings.enabled:
                outcome.learnings = parse_jsonl(
                    base.learnings or "", source=f"{request.base_ref}:{config.learnings.file}"
                )
                reading.path_checks = tuple(
                    f"{request.base_ref}:{path}" for path in sorted(anchors(outcome.learnings.learnings))
                )
        reading.add_issue_page(page.issues, sizes.timeline)
        if page.issues:
            outcome.scanned_through = page.issues[-1].updated_at
        outcome.scan_exhausted = not page.page_info.has_next_page
        progress(
            f"scan page {page_number}: {len(page.issues)} issues, "
            f"window {len(reading.window()[0])} of {reading.max_analyzed}"
        )
        cursor = page.page_info.end_cursor
        if reading.scan_settled() or not page.page_info.has_next_page:
            break
    await read_details(client, request.owner, request.name, reading, categories=categories, progress=progress)
    outcome.window = reading.window_issues()
    # rules.md: every marker that does not parse is named, even when its issue is not learned from.
    outcome.warnings.extend(reading.marker_warnings())
    for read in outcome.window:
        if read.truncated:
            outcome.warnings.append(
                f"#{read.issue.number}: timeline longer than the cap; later events not read"
            )
    known = dict(reading.permissions)
    for read in outcome.window:
        assert read.first is not None
        reactors = reading.reactors.get(read.first.node_id, [])
        outcome.corrections.append(correct(read.issue, read.first, reactors, reading.settings, known))
    if outcome.learnings is not None:
        prefix = f"{request.base_ref}:"
        exists = {key.removeprefix(prefix): value for key, value in reading.path_exists.items()}
        outcome.stale_learnings = stale_by_anchors(outcome.learnings.learnings, exists)
    unknown = {login for login in reading.needed_logins() if login not in reading.permissions}
    if unknown:
        reading.missing.add("permissions")
    outcome.missing = set(reading.missing)
    outcome.note = notes.partial(reading.missing, categories)
    outcome.page_sizes = reading.sizes
    return outcome


def _shrink(reading: Reading, error: GitHubError, what: str, progress: Progress) -> bool:
    """Halve the page sizes after GitHub could not answer a query that big; False at the floor."""
    smaller = reading.sizes.halved() if error.asks_for_less else None
    if smaller is None:
        return False
    progress(
        f"GitHub could not answer a {what} of {reading.sizes.describe()} ({error.category}): "
        f"asking again for {smaller.describe()}, and for no more than that from now on"
    )
    reading.sizes = smaller
    return True


async def read_details(
    client: GitHubClient, owner: str, name: str, reading: Reading, *, categories: set[str], progress: Progress
) -> None:
    """Details rounds until the reading needs nothing more or a cap is reached; failures go to `missing`.

    The cap on rounds grows as timeline pages shrink, so the same items can be read.
    """
    rounds = 0
    early: _EarlyLookups | None = None
    while rounds < MAX_DETAIL_ROUNDS * FULL_PAGE // reading.sizes.timeline:
        details_request = reading.next_request()
        if details_request.empty:
            break
        sizes = reading.sizes
        try:
            details = await fetch_details(
                client,
                owner,
                name,
                details_request,
                timeline_size=sizes.timeline,
                # Only timeline pages get smaller: without them the same query would be sent again.
                shrinkable=bool(details_request.timelines) and sizes.can_shrink,
            )
        except GitHubError as error:
            if details_request.timelines and _shrink(reading, error, "details query", progress):
                continue
            categories.add(error.category)
            if details_request.analysis_ids or details_request.reactions:
                reading.missing.add("reactions")
            if details_request.timelines:
                reading.missing.add("timelines")
            reading.missing.add("permissions")
            if early is not None:
                _record_rest(reading, categories, *await early.task)
            return
        rounds += 1
        if not details.permissions_forbidden:
            # Asked once: a login GitHub did not answer for is not asked again (the note says so).
            reading.asked |= {normalize_login(login) for login in details_request.logins}
        reading.prefetched = True
        reading.paths_asked = reading.paths_asked or bool(details_request.paths)
        reading.path_exists.update(details.paths)
        for reactions in details.reactions.values():
            reading.add_reactions(reactions)
        for number, page in details.timelines.items():
            reading.add_timeline(number, page, sizes.timeline)
        reading.add_permissions(details.permissions)
        reading.unlisted |= {normalize_login(login) for login in details.unlisted}
        if details.failed:
            reading.missing.update(notes.part(name) for name in details.failed)
            categories.add("partial answer")
            # Parts GitHub did not answer are not asked again: the caps bound the run.
            for node_id in details_request.analysis_ids:
                reading.reaction_pages.setdefault(node_id, 0)
            for number, _cursor in details_request.timelines:
                if number not in details.timelines:
                    reading.issues[number].cursor = None
        if details.permissions_forbidden and not reading.permissions_via_rest:
            progress("GraphQL may not list collaborators here: reading permissions through REST")
            reading.permissions_via_rest = True
        if reading.permissions_via_rest:
            pending = reading.pending_logins()
            if pending:
                failures: set[str] = set()
                found, unknown = await fetch_permissions_rest(client, owner, name, pending, failures=failures)
                reading.add_permissions(found)
                reading.asked |= set(pending)
                if unknown:
                    reading.missing.add("permissions")
                    # A rate limit says so; an answer that did not parse is a failed look-up.
                    categories.update(failures or {"permission look-up failed"})
        if early is None and not reading.next_request().empty:
            early = _look_up_early(client, owner, name, reading, progress)
    else:
        if not reading.next_request().empty:
            reading.missing.add("timelines")
            categories.add(notes.CAPS_REACHED)
    await confirm_unlisted(
        client, owner, name, reading, categories=categories, progress=progress, early=early
    )


@dataclass
class _EarlyLookups:
    """REST permission look-ups started while GraphQL answers a later details round."""

    logins: list[str]
    task: asyncio.Task[tuple[dict[str, str], list[str], set[str]]]


async def _rest_permissions(
    client: GitHubClient, owner: str, name: str, logins: list[str], cap: int
) -> tuple[dict[str, str], list[str], set[str]]:
    failures: set[str] = set()
    found, unknown = await fetch_permissions_rest(client, owner, name, logins, cap=cap, failures=failures)
    return found, unknown, failures


def _look_up_early(
    client: GitHubClient, owner: str, name: str, reading: Reading, progress: Progress
) -> _EarlyLookups | None:
    """Start the REST look-ups of the unlisted people already known to decide a rule, so that they
    run beside the next details round instead of in a round of their own after the last one
    (the same logins are asked either way: only when)."""
    logins = reading.unlisted_needed()
    if not logins:
        return None
    progress(f"{len(logins)} people not in GitHub's collaborator list: asking REST for their permission")
    reading.asked |= set(logins)  # a REST fallback of a later round does not ask them again
    task = asyncio.create_task(_rest_permissions(client, owner, name, logins, MAX_REST_LOOKUPS))
    return _EarlyLookups(logins, task)


def _record_rest(
    reading: Reading, categories: set[str], found: dict[str, str], unknown: list[str], failures: set[str]
) -> None:
    reading.add_permissions(found)
    if unknown:
        reading.missing.add("permissions")
        # A rate limit says so; a cap reached or an answer that did not parse is a failed look-up.
        categories.update(failures or {"permission look-up failed"})


async def confirm_unlisted(
    client: GitHubClient,
    owner: str,
    name: str,
    reading: Reading,
    *,
    categories: set[str],
    progress: Progress,
    early: _EarlyLookups | None = None,
) -> None:
    """Ask REST for the people whose permission decides a rule and whom GraphQL did not list.

    GitHub's collaborator list leaves out access through nested teams (and more), so "not listed"
    is not READ. Only the logins that decide something are asked, one REST request each, a few
    at a time and at most `MAX_REST_LOOKUPS` per run; a login not read leaves its rule uncounted.
    """
    asked: list[str] = []
    if early is not None:  # started beside the last details round: asked once, not again
        asked = early.logins
        _record_rest(reading, categories, *await early.task)
    pending = [login for login in reading.unlisted_needed() if login not in asked]
    if not pending:
        return
    progress(f"{len(pending)} people not in GitHub's collaborator list: asking REST for their permission")
    cap = max(0, MAX_REST_LOOKUPS - min(len(asked), MAX_REST_LOOKUPS))
    _record_rest(reading, categories, *await _rest_permissions(client, owner, name, pending, cap))
