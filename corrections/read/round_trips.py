"""One read, from its first request to its outcome: the scan's first page and the base branch's
files, the rest of the scan, the details rounds, then the rules on what was read.

A failing GitHub never raises out of `read_corrections`: what could not be read becomes a note.
"""

from __future__ import annotations

from corrections.read import notes
from corrections.read.analysed import AnalysedIssue
from corrections.read.base_files import Base, base_of, read_base_files, with_viewer_as_assistant
from corrections.read.details import Progress, read_details
from corrections.read.horizon import HORIZON
from corrections.read.issue_read import IssueRead
from corrections.read.options import ReadOptions
from corrections.read.outcome import Draft, ReadOutcome
from corrections.read.reading import EVERY_ANALYSIS, Reading
from corrections.read.scan import Scan, ScanEnd
from corrections.read.scan_asks import first_ask
from corrections.read.status import Complete, Partial
from corrections.rules.issue import correct
from corrections.rules.kept_examples import may_be_example
from corrections.rules.models import IssueCorrection
from learnings.rules.staleness import stale_by_anchors
from queries.client import GitHubClient
from queries.errors import GitHubError
from queries.fetch import WindowPage
from queries.window_request import EarlyRequest


async def read_corrections(
    client: GitHubClient, options: ReadOptions, progress: Progress, *, first: EarlyRequest | None = None
) -> ReadOutcome:
    """Read the window and its corrections; GitHub failures end as a note, never an exception.

    `first`: the first page's request when the caller sent it early (corrections/commands/read_context.py, corrections/read/entry.py);
    else it is sent here. Raises ConfigError when the configuration read at the base ref (the
    action) does not validate.
    """
    draft = Draft(f"{options.owner}/{options.name}", options.config, client.usage, options.analysed)
    if options.reading_off:
        return draft.off(notes.OFF)
    scan = Scan(client, options, first or EarlyRequest.send(client, first_ask(options)), progress)
    try:
        page = await scan.first_page()
    except GitHubError as error:
        draft.use_sizes(scan.sizes)
        return draft.failed(error.category, notes.failed(error.category))
    _analysed(draft, options, page)
    texts = await read_base_files(client, options, page)
    if texts.config_unread is not None:
        where = f"{options.base_ref}:{options.remote_config.path if options.remote_config else None}"
        return draft.failed(texts.config_unread, notes.config_unread(where, texts.config_unread))
    texts = with_viewer_as_assistant(texts, page.viewer)
    draft.use_config(texts.config, texts.warnings)
    if texts.config.context.max_analyzed == 0:
        return draft.off(notes.OFF_AT_BASE)
    base = base_of(texts, options.base_ref)
    draft.use_base(base.settings, base.learnings, base.warnings)
    window = texts.config.context.max_analyzed if options.variant.since is None else EVERY_ANALYSIS
    reading = Reading(
        base.settings,
        window,
        bodies=options.variant.since is None,
        sizes=scan.sizes,
        path_checks=base.path_checks,
        known=dict(options.variant.known_permissions),
        horizon=HORIZON if options.variant.since is None else 0,
    )
    reading.record_missing(texts.failed, texts.categories)
    reading.collaborators_listed(page.collaborators_refused)
    end = await scan.rest(reading, texts.config, page)
    listing = options.variant.collaborator_list
    # The horizon's page (when the pages read do not hold it) beside the first details round.
    await read_details(
        client,
        options.owner,
        options.name,
        reading,
        progress=progress,
        listing=listing,
        viewer=page.viewer,
        beside=scan.horizon_page(reading),
    )
    return _outcome(draft, reading, end, base, options.base_ref)


def _analysed(draft: Draft, options: ReadOptions, page: WindowPage) -> None:
    """The analysed issue's title and body, asked with the first page when they were not known."""
    asked = options.analysed.text_to_ask if options.analysed is not None else None
    if asked is None:
        return
    if page.analysed is None:
        draft.warn(f"issue #{asked} not found: corrections are in newest-first order")
    else:
        draft.found_analysed(AnalysedIssue(number=asked, title=page.analysed.title, body=page.analysed.body))


def _outcome(draft: Draft, reading: Reading, end: ScanEnd, base: Base, ref: str) -> ReadOutcome:
    """The rules on the window read, what the reading has to say of it, and the outcome."""
    window = reading.window_issues()
    if not window and (others := reading.others_markers()):
        draft.warn(notes.markers_by_others(reading.settings.assistant.login, others))
    # rules.md: every marker that does not parse is named, even when its issue is not learned from.
    for warning in reading.marker_warnings():
        draft.warn(warning)
    for read in window:
        if read.truncated:
            draft.warn(f"#{read.issue.number}: timeline longer than the cap; later events not read")
    known = reading.known_permissions()
    firsts = [read.first for read in window if read.first is not None]
    reactions = {first.node_id: reading.reactions_on(first.node_id) for first in firsts}
    corrections = tuple(
        correct(read.issue, first, reactions[first.node_id], reading.settings, known)
        for read, first in zip(window, firsts, strict=True)
    )
    # The horizon past the window: only its corrected issues are kept, as lessons to rank.
    horizon: list[IssueRead] = []
    carried: list[IssueCorrection] = []
    for read in reading.horizon_issues():
        assert read.first is not None
        found = reading.reactions_on(read.first.node_id)
        correction = correct(read.issue, read.first, found, reading.settings, known)
        if correction.is_corrected:
            reactions[read.first.node_id] = found
            horizon.append(read)
            carried.append(correction)
    stale: frozenset[str] = frozenset()
    if base.learnings is not None:
        exists = {key.removeprefix(f"{ref}:"): value for key, value in reading.paths_found().items()}
        stale = stale_by_anchors(base.learnings.learnings, exists)
    reading.mark_unknown_permissions()
    labelled = tuple(read.issue for read in reading.scanned() if may_be_example(read.issue, reading.settings))
    note = notes.joined(reading.note(), end.bounded)
    return draft.done(
        Partial(reading.missing, note) if reading.missing and note else Complete(note),
        window=tuple(window),
        corrections=corrections,
        horizon=tuple(horizon),
        carried=tuple(carried),
        reactions=reactions,
        permissions=known,
        stale_learnings=stale,
        sizes=reading.sizes,
        scan_exhausted=end.exhausted,
        scanned_through=end.through,
        budget_ended=end.budget_ended,
        labelled=labelled,
    )
