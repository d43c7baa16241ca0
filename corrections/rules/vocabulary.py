"""The label vocabulary declared in labels.md: only these labels are ever corrections.

labels.md is CommonMark, parsed with markdown-it-py: a list item of any kind and depth (`-`, `*`,
`+`, `1.`, `1)`) whose text starts with a label name in backticks declares that label,
``- `bug`: something does not work``. Nothing in a code block, a fence or an HTML comment or
block does: a maintainer retires a label by commenting it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assistant.markdown import block_parser, parser

if TYPE_CHECKING:
    from markdown_it.token import Token

# GitHub allows 50 characters in a label name; a longer "name" in labels.md is no label.
MAX_NAME = 100
# A label's description as labels.md gives it (GitHub allows 100 characters in its own).
MAX_DESCRIPTION = 200


@dataclass(frozen=True)
class Vocabulary:
    """Label names in declaration order; membership ignores case, as GitHub's label names do.

    A look-up is one dictionary access (built once, first declaration of a name first), so a run
    costs the same per label with 40,000 labels declared as with ten.
    """

    names: tuple[str, ...] = ()
    # What each label means, as labels.md says after its name (`- `bug`: something does not
    # work`); "" when it says nothing. Beside `names`, in the same order (shorter: "" for the rest).
    descriptions: tuple[str, ...] = field(default=(), compare=False)
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

    def described(self) -> list[tuple[str, str]]:
        """Each label with its description ("" when labels.md gives none), in declaration order."""
        return [
            (name, self.descriptions[i] if i < len(self.descriptions) else "")
            for i, name in enumerate(self.names)
        ]


def load_parser() -> None:
    """Import and build the parser now: the read does it while its first request is in flight, so
    that the labels.md read with that request is parsed without waiting for the import."""
    parser()
    block_parser()


def _description(children: list[Token]) -> str:
    """The words after a list item's code span: its text, one line, without the `:` or dash that
    separates it from the name, bounded."""
    words = " ".join(child.content for child in children if child.type in ("text", "code_inline"))
    words = " ".join(words.split()).lstrip(":-\u2013\u2014 ").strip()
    return words if len(words) <= MAX_DESCRIPTION else words[: MAX_DESCRIPTION - 1] + "…"


def _declared(text: str) -> list[tuple[str, str]]:
    """The code span that starts each list item's first paragraph, and the words after it, in
    document order.

    The blocks are parsed whole, the inline text only of the paragraphs that can declare a label:
    a list item's first paragraph whose text starts with a backtick (the only way its first inline
    token is a code span). With the same `env` (the link reference definitions the blocks hold),
    that paragraph's tokens are those a parse of the whole document gives it; a megabyte of other
    text costs no inline parse.
    """
    env: dict[str, Any] = {}
    tokens = block_parser().parse(text, env)
    found: list[tuple[str, str]] = []
    for before, opened, paragraph in zip(tokens, tokens[1:], tokens[2:], strict=False):
        if (
            before.type == "list_item_open"
            and opened.type == "paragraph_open"
            and paragraph.type == "inline"
            and paragraph.content.startswith("`")
        ):
            (inline,) = parser().parseInline(paragraph.content, env)
            if inline.children and inline.children[0].type == "code_inline":
                found.append((inline.children[0].content, _description(inline.children[1:])))
    return found


def parse_vocabulary(text: str) -> Vocabulary:
    """Labels declared by list items of labels.md, first declaration wins."""
    names: list[str] = []
    descriptions: list[str] = []
    seen: set[str] = set()
    for span, description in _declared(text):
        name = span.strip()
        if not name or len(name) > MAX_NAME or "`" in name or "\n" in name:
            continue
        if name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name)
            descriptions.append(description)
    return Vocabulary(tuple(names), tuple(descriptions))
