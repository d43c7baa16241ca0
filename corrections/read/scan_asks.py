"""What each scan page asks GitHub for: the one derivation of a `WindowAsk`.

The job asks every scan page through `page_ask`; the read sends its first page through the same
functions before the reader (pydantic, the models) is loaded. The two agree by construction, and
queries.fetch uses an early answer only for an equal ask.
"""

from __future__ import annotations

from assistant.config import Config
from queries.page_sizes import FULL_PAGE, PageSizes
from queries.requests import FileRequest, WindowAsk


def files_to_read(
    config: Config, ref: str, config_path: str | None = None, config_required: bool = False
) -> FileRequest:
    """The base-branch files the first page reads (the configuration too, for the action)."""
    return FileRequest(
        ref=ref,
        labels_path=config.context.labels_file,
        learnings_path=config.learnings.file if config.learnings.enabled else None,
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
