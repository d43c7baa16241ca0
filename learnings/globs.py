"""Path globs of learnings: parsing with clear errors, matching, specificity, and a fast "any match".

The syntax is the familiar one, with `/` separating directories:

- `*` any characters within one path segment, `?` one character within a segment;
- `[abc]`, `[a-z]`, `[!abc]` one character of (or not of) a class; a `]` right after the
  opening `[` or `[!` is a literal `]`;
- `**` as a whole segment: any number of segments (`src/**`, `**/*.py`, `a/**/b`).

Raises GlobError for a glob that cannot mean what its author wanted: empty, absolute, an unclosed
`[` or a stray `]`, `**` inside a segment, an empty, `.` or `..` segment, a backslash.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

_WILDCARDS = frozenset("*?[")


class GlobError(ValueError):
    """A glob that cannot be used; the message names the glob and what is wrong with it."""


@dataclass(frozen=True)
class Glob:
    """A parsed glob: its text, the compiled pattern and what ranking needs to know about it."""

    text: str
    pattern: re.Pattern[str]
    literal: bool
    prefix: str
    suffix: str
    specificity: tuple[int, int, int]

    def matches(self, path: str) -> bool:
        """Whether the whole path matches."""
        return self.pattern.fullmatch(path) is not None


def _class_regex(glob: str, segment: str, start: int) -> tuple[str, int]:
    """The regex of the class opening at `start`, and the index just after its closing `]`."""
    index = start + 1
    negated = index < len(segment) and segment[index] in "!^"
    if negated:
        index += 1
    members: list[str] = []
    first = True
    while True:
        if index >= len(segment):
            raise GlobError(f"bad glob `{glob}`: unclosed `[`")
        char = segment[index]
        if char == "]" and not first:
            break
        members.append("-" if char == "-" and not first else re.escape(char))
        first = False
        index += 1
    body = "".join(members)
    regex = f"[^/{body}]" if negated else f"[{body}]"
    try:
        re.compile(regex)
    except re.error as error:
        raise GlobError(f"bad glob `{glob}`: bad character class: {error.msg}") from error
    return regex, index + 1


def _segment_regex(glob: str, segment: str) -> tuple[str, int]:
    """The regex of one segment, and how many literal characters it has."""
    if not segment:
        raise GlobError(f"bad glob `{glob}`: empty path segment (use `dir/**` for a directory)")
    if segment in {".", ".."}:
        raise GlobError(f"bad glob `{glob}`: `{segment}` segment; write paths from the repository root")
    if "**" in segment:
        raise GlobError(f"bad glob `{glob}`: `**` must be a whole path segment")
    parts: list[str] = []
    literals = 0
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            parts.append("[^/]*")
            index += 1
        elif char == "?":
            parts.append("[^/]")
            index += 1
        elif char == "[":
            regex, index = _class_regex(glob, segment, index)
            parts.append(regex)
        elif char == "]":
            raise GlobError(f"bad glob `{glob}`: `]` without `[`")
        else:
            parts.append(re.escape(char))
            literals += 1
            index += 1
    return "".join(parts), literals


@lru_cache(maxsize=65536)
def parse_glob(text: str) -> Glob:
    """Parse and compile a glob.

    Raises GlobError.
    """
    if not text:
        raise GlobError("bad glob ``: empty")
    if text.startswith("/"):
        raise GlobError(f"bad glob `{text}`: starts with `/`; write paths from the repository root")
    if "\\" in text:
        raise GlobError(f"bad glob `{text}`: backslash; separate directories with `/`")
    if any(char in text for char in "\n\r\t\0"):
        raise GlobError(f"bad glob {text!r}: control character")
    segments = text.split("/")
    regex = ""
    literal_chars = 0
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            regex += ".+" if last else "(?:.*/)?"
        else:
            segment_regex, literals = _segment_regex(text, segment)
            regex += segment_regex + ("" if last else "/")
            literal_chars += literals
    literal = not any(char in _WILDCARDS for char in text)
    first_wild = min((text.index(char) for char in _WILDCARDS if char in text), default=len(text))
    prefix = text[:first_wild]
    tail = segments[-1]
    last_wild = max((tail.rindex(char) for char in "*?]" if char in tail), default=-1)
    suffix = "" if literal else tail[last_wild + 1 :]
    literal_segments = 0
    for segment in segments:
        if any(char in _WILDCARDS for char in segment):
            break
        literal_segments += 1
    specificity = (int(literal), literal_segments, literal_chars)
    return Glob(text, re.compile(regex, re.DOTALL), literal, prefix, suffix, specificity)


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
