"""What each scan page asks GitHub for: the one derivation of a `WindowAsk`, the first page's too.

The read sends its first page (`first_ask`) as soon as the HTTP client is loaded, before the
reader (pydantic, the models) is: built once, here, from the options alone, and taken by the scan
as its first page (corrections/read/scan.py). Only the standard library and small modules.
"""

from __future__ import annotations

from corrections.read.options import ReadOptions
from queries.page_sizes import FULL_PAGE, PageSizes
from queries.requests import FileRequest, WindowAsk


def files_to_read(options: ReadOptions) -> FileRequest:
    """The base-branch files the first page reads (the configuration too, for the action)."""
    config = options.config
    return FileRequest(
        ref=options.base_ref,
        labels_path=config.context.labels_file,
        learnings_path=config.learnings.file if config.learnings.enabled else None,
        config_path=None if options.remote_config is None else options.remote_config.path,
        config_required=options.remote_config is not None and options.remote_config.required,
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
    bodies: bool = False,
) -> WindowAsk:
    """The next scan page: as many issues as the page size allows, within `scan_pages` full pages
    in all (whatever the page size), each with a page of its timeline (and its body: `bodies`)."""
    return WindowAsk(
        owner=owner,
        name=name,
        after=after,
        page_size=min(sizes.issues, scan_pages * FULL_PAGE - scanned),
        timeline_size=sizes.timeline,
        shrinkable=sizes.can_shrink,
        files=files,
        analysed=analysed,
        bodies=bodies,
    )


def first_ask(options: ReadOptions, sizes: PageSizes | None = None) -> WindowAsk:
    """The first scan page, with the base branch's files and the analysed issue's text when not
    known; at full sizes it is the request sent early, smaller when GitHub could not answer it."""
    return page_ask(
        options.owner,
        options.name,
        scan_pages=options.config.context.scan_pages,
        sizes=sizes or PageSizes(),
        scanned=0,
        after=None,
        files=files_to_read(options),
        analysed=options.analysed.text_to_ask if options.analysed is not None else None,
    )
