"""The one template environment of the files the model reads (context files and the prompt).

Markdown, not HTML, so nothing is auto-escaped: untrusted text is cleaned and JSON-quoted by the
renderers before a template sees it. StrictUndefined: a missing value fails, never renders empty.
"""

from __future__ import annotations

from pathlib import Path

from assistant.templating import markdown_environment

TEMPLATES = Path(__file__).resolve().parent / "templates"

_environment = markdown_environment(TEMPLATES)


def render_template(name: str, **values: object) -> str:
    """The template `name` of corrections/render/templates rendered with `values`."""
    return _environment.get_template(name).render(**values)


def load_templates(*names: str) -> None:
    """Compile templates now (jinja2 compiles each on its first use and keeps it): for a caller
    that can do it while it waits, rather than when it renders."""
    for name in names:
        _environment.get_template(name)
