"""The label vocabulary declared in labels.md: only these labels are ever corrections.

A list item whose text starts with a label name in backticks declares that label:
``- `bug`: something does not work``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+`([^`\n]+)`")  # nested items too
# GitHub allows 50 characters in a label name; a longer "name" in labels.md is no label.
MAX_NAME = 100


@dataclass(frozen=True)
class Vocabulary:
    """Label names in declaration order; membership ignores case, as GitHub's label names do."""

    names: tuple[str, ...] = ()

    def canonical(self, label: str) -> str | None:
        """The declared spelling of `label`, or None when it is not in the vocabulary."""
        wanted = label.strip().casefold()
        for name in self.names:
            if name.casefold() == wanted:
                return name
        return None

    def __contains__(self, label: object) -> bool:
        return isinstance(label, str) and self.canonical(label) is not None


def parse_vocabulary(text: str) -> Vocabulary:
    """Labels declared by list items of labels.md, first declaration wins."""
    names: list[str] = []
    seen: set[str] = set()
    in_fence = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        match = _ITEM.match(line)
        if match is None:
            continue
        name = match.group(1).strip()
        if name and len(name) <= MAX_NAME and name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name)
    return Vocabulary(tuple(names))
