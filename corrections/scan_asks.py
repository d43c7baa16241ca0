"""What each scan page asks GitHub for, from plain values: the one derivation of a `WindowAsk`.

The job asks every scan page through `page_ask`; the read sends its first page through the same
functions before the reader (pydantic, the models) is loaded, from the defaults when nothing was
configured (assistant/config_defaults.py). The two agree by construction, and queries.fetch
uses an early answer only for an equal ask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant import config_defaults
from queries.page_sizes import FULL_PAGE, PageSizes
from queries.requests import FileRequest, WindowAsk

if TYPE_CHECKING:
    from assistant.config import Config


@dataclass(frozen=True)
class ScanSettings:
    """The configuration keys that decide the scan's requests."""

    max_analyzed: int
    scan_pages: int
    labels_file: str
    learnings_file: str | None  # None: learnings turned off

    @classmethod
    def defaults(cls) -> ScanSettings:
        """The keys' defaults, known without validating anything."""
        return cls(
            max_analyzed=config_defaults.MAX_ANALYZED,
            scan_pages=config_defaults.SCAN_PAGES,
            labels_file=config_defaults.LABELS_FILE,
            learnings_file=config_defaults.LEARNINGS_FILE if config_defaults.LEARNINGS_ENABLED else None,
        )

    @classmethod
    def of(cls, config: Config) -> ScanSettings:
        """The keys of a validated configuration."""
        return cls(
            max_analyzed=config.context.max_analyzed,
            scan_pages=config.context.scan_pages,
            labels_file=config.context.labels_file,
            learnings_file=config.learnings.file if config.learnings.enabled else None,
        )


def files_to_read(
    settings: ScanSettings, ref: str, config_path: str | None = None, config_required: bool = False
) -> FileRequest:
    """The base-branch files the first page reads (the configuration too, for the action)."""
    return FileRequest(
        ref=ref,
        labels_path=settings.labels_file,
        learnings_path=settings.learnings_file,
        config_path=config_path,
        config_required=config_required,
    )


def page_ask(
    owner: str,
    name: str,
    *,
    scan_pages: int,
    sizes: PageSizes,
    scanned: int,
    after: str | None,
    files: FileRequest | None = None,
    analysed: int | None = None,
) -> WindowAsk:
    """The next scan page: as many issues as the page size allows, within `scan_pages` full pages
    in all (whatever the page size), each with a page of its timeline."""
    return WindowAsk(
        owner=owner,
        name=name,
        after=after,
        page_size=min(sizes.issues, scan_pages * FULL_PAGE - scanned),
        timeline_size=sizes.timeline,
        shrinkable=sizes.can_shrink,
        files=files,
        analysed=analysed,
    )
