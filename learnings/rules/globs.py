"""Path globs of learnings: parsing with clear errors, matching, specificity, and a fast "any match".

The syntax is the familiar one, with `/` separating directories:

- `*` any characters within one path segment, `?` one character within a segment;
- `[abc]`, `[a-z]`, `[!abc]` one character of (or not of) a class, never `/`; a `]` right after
  the opening `[` or `[!` is a literal `]`;
- `**` as a whole segment: any number of segments (`src/**`, `**/*.py`, `a/**/b`).

Globs arrive through proposals and commands and paths through pull requests, so matching is
linear in the path (learnings.rules.glob_automaton: no regular expression is built from a glob) and
both are bounded: a glob longer than MAX_GLOB characters is refused, a path longer than MAX_PATH
characters matches no glob.

Raises GlobError for a glob that cannot mean what its author wanted: empty, too long, absolute,
an unclosed `[` or a stray `]`, a class with a range backwards, `**` inside a segment, an empty,
`.` or `..` segment, a backslash.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

from learnings.rules.glob_automaton import ANY, ANY_BUT_SLASH, Automaton, CharSet, literal

# A glob is a line a person reviews: 1,024 characters is far more than any real one.
MAX_GLOB = 1024
# The longest path any operating system accepts (Windows' `\\?\` paths); no checkout holds a longer one.
MAX_PATH = 32767
# Fixed character classes searched in a glob (never a pattern made from one).
_SPECIAL = re.compile(r"[*?\[\]]")
_WILD = re.compile(r"[*?\[]")
_CONTROL = re.compile(r"[\n\r\t\0]")

Shape = Literal["literal", "all", "under", "anywhere", "flat", "automaton"]


class GlobError(ValueError):
    """A glob that cannot be used; the message names the glob and what is wrong with it."""


@dataclass(frozen=True)
class Glob:
    """A parsed glob: its text, how to match it, and what ranking needs to know about it.

    The common shapes (an exact path, `**`, `dir/**`, `**/*.ext`, `dir/*.ext`) match with string
    operations; only the others build their automaton, the first time it is needed.
    """

    text: str
    literal: bool
    prefix: str
    suffix: str
    specificity: tuple[int, int, int]
    shape: Shape

    @cached_property
    def automaton(self) -> Automaton:
        """The automaton of the whole glob (learnings.rules.glob_automaton)."""
        return _automaton(self.text)

    def matches(self, path: str) -> bool:
        """Whether the whole path matches (a path longer than MAX_PATH matches nothing)."""
        if len(path) > MAX_PATH:
            return False
        shape = self.shape
        if shape == "literal":
            return path == self.text
        if shape == "all":
            return bool(path)
        if shape == "under":
            return len(path) > len(self.prefix) and path.startswith(self.prefix)
        if shape == "anywhere":
            return path.endswith(self.suffix)
        if shape == "flat":
            rest = path[len(self.prefix) :]
            return path.startswith(self.prefix) and "/" not in rest and rest.endswith(self.suffix)
        return self.automaton.matches(path)


def _shape(text: str, prefix: str, suffix: str) -> Shape:
    """Which string operation matches the glob, if one does (see Glob)."""
    if _SPECIAL.search(text) is None:
        return "literal"
    if text == "**":
        return "all"
    if text.endswith("/**") and len(prefix) == len(text) - 2:
        return "under"
    if text == f"**/*{suffix}" and "/" not in suffix:
        return "anywhere"
    if text == f"{prefix}*{suffix}" and "/" not in suffix:
        return "flat"
    return "automaton"


def _class(glob: str, segment: str, start: int) -> tuple[CharSet, int]:
    """The class opening at `start`, and the index just after its closing `]`."""
    index = start + 1
    negated = index < len(segment) and segment[index] in "!^"
    if negated:
        index += 1
    ranges: list[tuple[int, int]] = []
    first = True
    while True:
        if index >= len(segment):
            raise GlobError(f"bad glob `{glob}`: unclosed `[`")
        char = segment[index]
        if char == "]" and not first:
            break
        first = False
        high = char
        if index + 2 < len(segment) and segment[index + 1] == "-" and segment[index + 2] != "]":
            high = segment[index + 2]
            if ord(high) < ord(char):
                raise GlobError(f"bad glob `{glob}`: bad character class: range {char}-{high} backwards")
            index += 2
        ranges.append((ord(char), ord(high)))
        index += 1
    return CharSet(ranges=tuple(ranges), negated=negated), index + 1


def _check_segment(glob: str, segment: str) -> None:
    if not segment:
        raise GlobError(f"bad glob `{glob}`: empty path segment (use `dir/**` for a directory)")
    if segment in {".", ".."}:
        raise GlobError(f"bad glob `{glob}`: `{segment}` segment; write paths from the repository root")
    if "**" in segment and segment != "**":
        raise GlobError(f"bad glob `{glob}`: `**` must be a whole path segment")


def _segment(glob: str, segment: str, into: Automaton | None) -> int:
    """Check one segment and add its positions to the automaton (when there is one); how many
    literal characters it has."""
    if _SPECIAL.search(segment) is None:
        if into is not None:
            for char in segment:
                into.one(literal(char))
        return len(segment)
    literals = 0
    index = 0
    while index < len(segment):
        char = segment[index]
        chars: CharSet
        if char in "*?":
            chars = ANY_BUT_SLASH
            index += 1
        elif char == "[":
            chars, index = _class(glob, segment, index)
        elif char == "]":
            raise GlobError(f"bad glob `{glob}`: `]` without `[`")
        else:
            chars = literal(char)
            literals += 1
            index += 1
        if into is not None:
            (into.any_number if char == "*" else into.one)(chars)
    return literals


def _build(text: str, into: Automaton | None = None) -> int:
    """Check the glob's segments, adding their positions to the automaton when there is one; how
    many literal characters it has. Raises GlobError."""
    segments = text.split("/")
    literal_chars = 0
    for index, segment in enumerate(segments):
        _check_segment(text, segment)
        last = index == len(segments) - 1
        if segment != "**":
            literal_chars += _segment(text, segment, into)
            if not last and into is not None:
                into.one(literal("/"))
        elif into is None:
            continue
        elif last:  # anything non-empty, slashes included
            into.one(ANY)
            into.any_number(ANY)
        elif segments[index + 1] != "**":  # `**/**` means what one `**` means
            into.optional_segments()
    return literal_chars


def _automaton(text: str) -> Automaton:
    automaton = Automaton()
    _build(text, automaton)
    return automaton.finish()


@lru_cache(maxsize=65536)
def parse_glob(text: str) -> Glob:
    """Parse and check a glob (its automaton is built when first needed).

    Raises GlobError.
    """
    if not text:
        raise GlobError("bad glob ``: empty")
    if len(text) > MAX_GLOB:
        raise GlobError(f"bad glob `{text[:40]}…`: longer than {MAX_GLOB} characters")
    if text.startswith("/"):
        raise GlobError(f"bad glob `{text}`: starts with `/`; write paths from the repository root")
    if "\\" in text:
        raise GlobError(f"bad glob `{text}`: backslash; separate directories with `/`")
    if _CONTROL.search(text) is not None:
        raise GlobError(f"bad glob {text!r}: control character")
    literal_chars = _build(text)
    segments = text.split("/")
    is_literal = _SPECIAL.search(text) is None
    first_wild = _WILD.search(text)
    prefix = text if first_wild is None else text[: first_wild.start()]
    tail = segments[-1]
    last_wild = max(tail.rfind("*"), tail.rfind("?"), tail.rfind("]"))
    suffix = "" if is_literal else tail[last_wild + 1 :]
    literal_segments = 0
    for segment in segments:
        if _SPECIAL.search(segment) is not None:
            break
        literal_segments += 1
    specificity = (int(is_literal), literal_segments, literal_chars)
    return Glob(text, is_literal, prefix, suffix, specificity, _shape(text, prefix, suffix))


def check_globs(texts: Iterable[str]) -> tuple[str, ...]:
    """The globs, each checked.

    Raises GlobError for the first bad one.
    """
    checked = tuple(texts)
    for text in checked:
        parse_glob(text)
    return checked


def escape_glob(path: str) -> str:
    """A glob that matches exactly this path, its wildcard characters made literal."""
    return "".join(f"[{char}]" if char in "*?[]" else char for char in path)


class PathIndex:
    """A set of paths that answers "does this glob match any of them?" without testing every path.

    An exact path is a set lookup; a glob with a literal prefix tests only the paths with that
    prefix (found by bisection); others test only the paths ending with the glob's literal suffix.
    Answers are remembered per glob text, so a glob shared by many learnings is tested once.
    """

    def __init__(self, paths: Iterable[str]) -> None:
        self._set = frozenset(paths)
        self._sorted = sorted(self._set)
        self._answers: dict[str, bool] = {}

    def __len__(self) -> int:
        return len(self._sorted)

    def any_match(self, glob: Glob) -> bool:
        """Whether the glob matches at least one path of the index."""
        known = self._answers.get(glob.text)
        if known is not None:
            return known
        answer = self._search(glob)
        self._answers[glob.text] = answer
        return answer

    def _search(self, glob: Glob) -> bool:
        if glob.literal:
            return glob.text in self._set
        candidates: Iterable[str]
        if glob.prefix:
            start = bisect.bisect_left(self._sorted, glob.prefix)
            end = bisect.bisect_left(self._sorted, glob.prefix + "\U0010ffff", lo=start)
            candidates = self._sorted[start:end]
        else:
            candidates = self._sorted
        suffix = glob.suffix
        return any(path.endswith(suffix) and glob.matches(path) for path in candidates)
