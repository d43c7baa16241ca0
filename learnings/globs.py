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
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

_SPECIAL = re.compile(r"[*?\[\]]")
_WILD = re.compile(r"[*?\[]")
_CONTROL = re.compile(r"[\n\r\t\0]")


class GlobError(ValueError):
    """A glob that cannot be used; the message names the glob and what is wrong with it."""


@dataclass(frozen=True)
class Glob:
    """A parsed glob: its text, how to match it, and what ranking needs to know about it.

    The common shapes (an exact path, `**`, `dir/**`, `**/*.ext`, `dir/*.ext`) match with string
    operations; only the others compile their regular expression, the first time it is needed.
    """

    text: str
    regex: str
    literal: bool
    prefix: str
    suffix: str
    specificity: tuple[int, int, int]
    shape: Literal["literal", "all", "under", "anywhere", "flat", "regex"]

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """The compiled regular expression of the whole glob."""
        return re.compile(self.regex, re.DOTALL)

    def matches(self, path: str) -> bool:
        """Whether the whole path matches."""
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
        return self.pattern.fullmatch(path) is not None


def _shape(
    text: str, prefix: str, suffix: str
) -> Literal["literal", "all", "under", "anywhere", "flat", "regex"]:
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
    return "regex"


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
        with warnings.catch_warnings():
            # `--`, `&&`, `~~`, `||` in a class are set operations to come in Python's re: ambiguous.
            warnings.simplefilter("error", FutureWarning)
            re.compile(regex)
    except re.error as error:
        raise GlobError(f"bad glob `{glob}`: bad character class: {error.msg}") from error
    except FutureWarning as error:
        raise GlobError(f"bad glob `{glob}`: ambiguous character class") from error
    return regex, index + 1


def _segment_regex(glob: str, segment: str) -> tuple[str, int]:
    """The regex of one segment, and how many literal characters it has."""
    if not segment:
        raise GlobError(f"bad glob `{glob}`: empty path segment (use `dir/**` for a directory)")
    if segment in {".", ".."}:
        raise GlobError(f"bad glob `{glob}`: `{segment}` segment; write paths from the repository root")
    if "**" in segment:
        raise GlobError(f"bad glob `{glob}`: `**` must be a whole path segment")
    if _SPECIAL.search(segment) is None:
        return re.escape(segment), len(segment)
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
    if _CONTROL.search(text) is not None:
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
    literal = _SPECIAL.search(text) is None
    first_wild = _WILD.search(text)
    prefix = text if first_wild is None else text[: first_wild.start()]
    tail = segments[-1]
    last_wild = max(tail.rfind("*"), tail.rfind("?"), tail.rfind("]"))
    suffix = "" if literal else tail[last_wild + 1 :]
    literal_segments = 0
    for segment in segments:
        if _SPECIAL.search(segment) is not None:
            break
        literal_segments += 1
    specificity = (int(literal), literal_segments, literal_chars)
    return Glob(text, regex, literal, prefix, suffix, specificity, _shape(text, prefix, suffix))


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
