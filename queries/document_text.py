"""The hand-written documents as text, without graphql-core: what a read's first request sends.

A read sends its first request (`CorrectionWindow`) as soon as the HTTP client is loaded, and loads
gql and graphql-core (about 80 ms of a read's start-up) beside it, while GitHub answers. So the
first request's document is put together here from the files as they are: the operation, then
each fragment it spreads, directly or through another fragment, in the order of their names (as
queries.documents attaches them), comments left out. Our own files only, read by a small scanner
(no regular expression), which knows GraphQL's comments, strings and spreads; tests hold what it
builds to graphql-core's parse of the same files, for every operation.

The fixed variables live here too (their values come from the files, not from the caller), so the
parsed documents (queries.documents) and this text send the same values.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent
_NAME_START = frozenset("_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_NAME_REST = _NAME_START | frozenset("0123456789")


@dataclass(frozen=True)
class Token:
    """A name, a punctuator (`...` is one) or a string's whole text, with where it starts."""

    text: str
    start: int


def _string_end(source: str, start: int) -> int:
    """Where the string that opens at `start` ends (one past its closing quote)."""
    if source.startswith('"""', start):
        index = start + 3
        while True:
            found = source.find('"""', index)
            if found < 0:
                raise ValueError("a block string is not closed")
            if source[found - 1] != "\\":
                return found + 3
            index = found + 3
    index = start + 1
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == '"':
            return index + 1
        if char == "\n":
            break
        index += 1
    raise ValueError("a string is not closed on its line")


def _segments(source: str) -> Iterator[tuple[str, int, int]]:
    """The document cut where its comments and strings start and end: (kind, start, end), kind
    "comment", "string" or "text" (everything else)."""
    index = text_start = 0
    while index < len(source):
        char = source[index]
        if char not in '#"':
            index += 1
            continue
        if text_start < index:
            yield "text", text_start, index
        if char == "#":
            line_end = source.find("\n", index)
            end = len(source) if line_end < 0 else line_end
        else:
            end = _string_end(source, index)
        yield ("comment" if char == "#" else "string"), index, end
        index = text_start = end
    if text_start < len(source):
        yield "text", text_start, len(source)


def _scan(source: str) -> Iterator[Token]:
    """The tokens of a document, comments and separators (white space, commas) left out."""
    for kind, start, end in _segments(source):
        if kind == "string":
            yield Token(source[start:end], start)
        if kind != "text":
            continue
        index = start
        while index < end:
            char = source[index]
            if char in " \t\r\n,\ufeff":
                index += 1
            elif source.startswith("...", index):
                yield Token("...", index)
                index += 3
            elif char in _NAME_START:
                name_end = index + 1
                while name_end < end and source[name_end] in _NAME_REST:
                    name_end += 1
                yield Token(source[index:name_end], index)
                index = name_end
            else:
                yield Token(char, index)
                index += 1


def without_comments(source: str) -> str:
    """The document with its comments and the lines they leave empty removed."""
    kept = "".join(source[start:end] for kind, start, end in _segments(source) if kind != "comment")
    return "\n".join(line.rstrip() for line in kept.splitlines() if line.strip()) + "\n"


@cache
def _source(stem: str) -> str:
    return (DIRECTORY / f"{stem}.graphql").read_text(encoding="utf-8")


def spreads(source: str) -> list[str]:
    """The fragments a document spreads (`...Name`, not the inline `... on Type`), in order."""
    tokens = list(_scan(source))
    return [
        after.text
        for token, after in itertools.pairwise(tokens)
        if token.text == "..." and after.text[:1] in _NAME_START and after.text != "on"
    ]


def needed_fragments(stem: str) -> list[str]:
    """Every fragment the document `stem` needs, directly or through another, by name."""
    needed: set[str] = set()
    pending = spreads(_source(stem))
    while pending:
        name = pending.pop()
        if name not in needed:
            needed.add(name)
            pending.extend(spreads(_source(name)))
    return sorted(needed)


def declared_variables(source: str) -> list[str]:
    """The variables an operation declares (`$name:` between its name and its selection)."""
    tokens = list(_scan(source))
    declared: list[str] = []
    depth = 0
    for index, token in enumerate(tokens):
        if token.text == "{" and depth == 0:
            break
        if token.text == "(":
            depth += 1
        elif token.text == ")":
            depth -= 1
        elif token.text == "$" and depth == 1 and index + 2 < len(tokens) and tokens[index + 2].text == ":":
            declared.append(tokens[index + 1].text)
    return declared


@cache
def timeline_item_types() -> tuple[str, ...]:
    """The timeline item types asked for: those TimelinePage.graphql selects under `nodes`
    (`... on LabeledEvent` asks for LABELED_EVENT), so the types are written once, as the
    selection that reads them."""
    tokens = list(_scan(_source("TimelinePage")))
    depth, nodes_depth = 0, None
    found: list[str] = []
    for index, token in enumerate(tokens):
        if token.text == "{":
            depth += 1
            if nodes_depth is None and index and tokens[index - 1].text == "nodes" and depth == 2:
                nodes_depth = depth
        elif token.text == "}":
            if depth == nodes_depth:
                break
            depth -= 1
        elif (
            nodes_depth is not None
            and depth == nodes_depth
            and token.text == "..."
            and tokens[index + 1].text == "on"
        ):
            found.append(_enum_name(tokens[index + 2].text))
    return tuple(found)


def _enum_name(type_name: str) -> str:
    """GitHub's enum value for a type: LabeledEvent is LABELED_EVENT."""
    return "".join(f"_{c}" if c.isupper() and i else c for i, c in enumerate(type_name)).upper()


# Variables whose value is the project's, not the caller's: an operation that declares one sends it.
FIXED_VARIABLES: dict[str, Callable[[], object]] = {"timelineItemTypes": lambda: list(timeline_item_types())}


@dataclass(frozen=True)
class OperationText:
    """A named operation as sent: its text with its fragments, and its fixed variables' values."""

    name: str
    text: str
    fixed_variables: dict[str, object]


def operation_text(name: str) -> OperationText:
    """The operation `name` as written, with the fragments it needs, ready to send as text."""
    path = DIRECTORY / f"{name}.graphql"
    if not path.is_file():
        raise KeyError(name)
    source = _source(name)
    text = "".join(without_comments(_source(stem)) for stem in [name, *needed_fragments(name)])
    declared = set(declared_variables(source))
    fixed = {variable: value() for variable, value in FIXED_VARIABLES.items() if variable in declared}
    return OperationText(name=name, text=text, fixed_variables=fixed)
