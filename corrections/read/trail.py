"""The reading behind `corrections explain N`: one issue, through the reader's own details rounds
and the base branch's settings as a read builds them (read/base_files.py); entered through
corrections/read/entry.py's `read_trail`."""

from __future__ import annotations

from dataclasses import dataclass, field

from corrections.read.base_files import BaseFileTexts, base_of, file_text
from corrections.read.details import Progress, read_details
from corrections.read.notes import TrailFacts
from corrections.read.options import ReadOptions
from corrections.read.reading import Reading
from corrections.rules.models import Issue, Permission, Reaction
from corrections.rules.settings import RuleSettings
from queries.client import GitHubClient
from queries.page_sizes import PageSizes, ask_smaller
from queries.trail import Trail, fetch_trail


@dataclass
class TrailOutcome:
    """One issue as read, with what its rules need; `issue` is None when there is no such issue."""

    settings: RuleSettings
    issue: Issue | None = None
    permissions: dict[str, Permission] = field(default_factory=dict)
    reactors: list[Reaction] | None = None
    facts: TrailFacts = field(default_factory=TrailFacts)
    warnings: list[str] = field(default_factory=list)


async def read_trail(
    client: GitHubClient, options: ReadOptions, number: int, *, progress: Progress
) -> TrailOutcome:
    """Read one issue, its later timeline pages, 👎 on its first analysis and the permissions that matter.

    Raises GitHubError when the issue itself cannot be read; later rounds that fail are noted.
    """
    owner, name, config, base_ref = options.owner, options.name, options.config, options.base_ref
    expression = f"{base_ref}:{config.context.labels_file}"

    async def send(sizes: PageSizes, shrinkable: bool) -> Trail:
        return await fetch_trail(
            client, owner, name, number, expression, timeline_size=sizes.timeline, shrinkable=shrinkable
        )

    # One issue: only its timeline page gets smaller (PageSizes keeps one issue at one).
    trail, sizes = await ask_smaller(PageSizes(issues=1), send, what="query", told=progress)
    warnings: list[str] = []
    text = file_text(trail.labels_file, config.context.labels_file, warnings)
    base = base_of(BaseFileTexts(config, text, None, (), ()), base_ref)
    settings, warnings = base.settings, [*warnings, *base.warnings]
    if trail.issue is None:
        return TrailOutcome(settings=settings, warnings=warnings)
    reading = Reading(settings, max_analyzed=1)
    reading.use_sizes(sizes)
    reading.add_issue_page((trail.issue,), timeline_size=sizes.timeline)
    await read_details(client, owner, name, reading, progress=progress)
    read = reading.issue(trail.issue.number)
    reactors: list[Reaction] | None = None
    if (
        read.first is not None
        and reading.reactions_answered(read.first.node_id)
        and "reactions" not in reading.missing
    ):
        reactors = reading.reactions_on(read.first.node_id)
    return TrailOutcome(
        settings=settings,
        issue=read.issue,
        permissions=reading.known_permissions(),
        reactors=reactors,
        facts=TrailFacts(truncated=read.truncated, missing=set(reading.missing)),
        warnings=[*warnings, *read.warnings],
    )
