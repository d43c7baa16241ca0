"""The one definition of how a template is rendered: Markdown for a model or a maintainer.

Markdown, not HTML, so nothing is auto-escaped: untrusted text is cleaned, quoted and fenced by
the renderers (assistant.untrusted) before a template sees it. StrictUndefined: a missing value
fails, never renders empty. Each template folder gets one environment per whitespace setting.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined


@cache
def markdown_environment(
    folder: Path, *, trim_blocks: bool = False, lstrip_blocks: bool = False
) -> Environment:
    """The environment of the templates in `folder`, with the given block whitespace handling."""
    return Environment(
        loader=FileSystemLoader(folder),
        undefined=StrictUndefined,
        autoescape=False,  # noqa: S701 - Markdown, not HTML; untrusted text is quoted before it gets here.
        keep_trailing_newline=True,
        trim_blocks=trim_blocks,
        lstrip_blocks=lstrip_blocks,
    )
