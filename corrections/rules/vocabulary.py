"""The label vocabulary declared in labels.md: only these labels are ever corrections.

labels.md is CommonMark, parsed with markdown-it-py: a list item of any kind and depth (`-`, `*`,
`+`, `1.`, `1)`) whose text starts with a label name in backticks declares that label,
``- `bug`: something does not work``. Nothing in a code block, a fence or an HTML comment or
block does: a maintainer retires a label by commenting it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.markdown import parser

# GitHub allows 50 characters in a label name; a longer "name" in labels.md is no label.
MAX_NAME = 100


@dataclass(frozen=True)
class Vocabulary:
    """Label names in declaration order; membership ignores case, as GitHub's label names do.

    A look-up is one dictionary access (built once, first declaration of a name first), so a run
    costs the same per label with 40,000 labels declared as with ten.
    """

    names: tuple[str, ...] = ()
    _by_folded: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[str, str] = {}
        for name in self.names:
            index.setdefault(name.casefold(), name)
        object.__setattr__(self, "_by_folded", index)

    def canonical(self, label: str) -> str | None:
        """The declared spelling of `label`, or None when it is not in the vocabulary."""
        return self._by_folded.get(label.strip().casefold())

    def __contains__(self, label: object) -> bool:
        return isinstance(label, str) and self.canonical(label) is not None


def load_parser() -> None:
    """Import and build the parser now: the read does it while its first request is in flight, so
    that the labels.md read with that request is parsed without waiting for the import."""
    parser()


def _declared(text: str) -> list[str]:
    """The code span that starts each list item's first paragraph, in document order."""
    tokens = parser().parse(text)
    found: list[str] = []
    for before, opened, inline in zip(tokens, tokens[1:], tokens[2:], strict=False):
        if (
            before.type == "list_item_open"
            and opened.type == "paragraph_open"
            and inline.type == "inline"
            and inline.children
            and inline.children[0].type == "code_inline"
        ):
            found.append(inline.children[0].content)
    return found


def parse_vocabulary(text: str) -> Vocabulary:
    """Labels declared by list items of labels.md, first declaration wins."""
    names: list[str] = []
    seen: set[str] = set()
    for span in _declared(text):
        name = span.strip()
        if not name or len(name) > MAX_NAME or "`" in name or "\n" in name:
            continue
        if name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name)
    return Vocabulary(tuple(names))
