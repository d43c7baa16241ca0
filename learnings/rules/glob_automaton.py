"""Matching a parsed glob in time linear in the path: a bit-parallel automaton, no regular expression.

A glob is a sequence of positions, each consuming one character (a literal, `?`, a class, a `/`)
or any number of characters (`*` within a segment, the `.*` of `**`). The set of positions the
match may have reached is one integer, one bit a position; each character of the path moves every
bit at once with a few shifts and masks, whatever the glob (no backtracking, so `*a*a*a…*b`
against `aaa…a/b` costs what `*` costs). A character's masks are a dictionary look-up for the
glob's literal characters; for its classes they depend only on which interval between the
classes' bounds the character falls in, so they are computed once per interval.

The meaning (learnings.rules.globs): `*` and `?` never match `/`, nor does a class; `**` as the last
segment matches anything non-empty, elsewhere zero or more whole segments (`a/**/b` matches
`a/b`, `a/x/y/b`).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

MAX_CODE_POINT = 0x10FFFF


@dataclass(frozen=True)
class CharSet:
    """The characters one position accepts: any but `/` (`?`, `*`), any at all (`**`), or a class.

    A class is its ranges of code points; `negated` accepts what is outside them. Whatever the
    ranges, only a set with `slash` accepts `/`: "any at all" and the separator itself.
    """

    ranges: tuple[tuple[int, int], ...] = ()
    negated: bool = False
    slash: bool = False

    def single(self) -> str | None:
        """The one character the set holds, when it is a literal (not negated, one code point)."""
        if self.negated or len(self.ranges) != 1 or self.ranges[0][0] != self.ranges[0][1]:
            return None
        return chr(self.ranges[0][0])

    def accepts(self, char: str) -> bool:
        """Whether the position may consume `char`."""
        if char == "/":
            return self.slash
        point = ord(char)
        inside = any(low <= point <= high for low, high in self.ranges)
        return inside is not self.negated


ANY_BUT_SLASH = CharSet(negated=True)
ANY = CharSet(negated=True, slash=True)
NOTHING = CharSet()


def literal(char: str) -> CharSet:
    """The set of one character."""
    return CharSet(ranges=((ord(char), ord(char)),), slash=char == "/")


@dataclass
class Automaton:
    """A glob's positions and the masks that move a match through them.

    Built by adding positions in order (`one`, `any_number`, `optional_segments`), then `finish`ed
    and matched with `matches`. Bit i set means "the path so far matches the glob up to position
    i"; the last bit (`len(sets)`) means "the whole glob".
    """

    sets: list[CharSet] = field(default_factory=list)
    many: int = 0  # positions that consume any number of characters (a `*` or the `.*` of `**`)
    skip: int = 0  # where `(.*/)?` starts: a match there may also skip its three positions
    # Masks (consume once, consume and stay) that do not depend on classes: by literal character,
    # for `/`, and for any other character.
    _literals: dict[str, int] = field(default_factory=dict)
    _slash: tuple[int, int] = (0, 0)
    _other: tuple[int, int] = (0, 0)
    _classes: list[tuple[int, CharSet]] = field(default_factory=list)
    _bounds: list[int] = field(default_factory=list)
    _by_interval: dict[int, int] = field(default_factory=dict)

    def one(self, chars: CharSet) -> None:
        """A position that consumes exactly one character of `chars`."""
        self.sets.append(chars)

    def any_number(self, chars: CharSet) -> None:
        """A position that consumes zero or more characters of `chars`."""
        self.many |= 1 << len(self.sets)
        self.sets.append(chars)

    def optional_segments(self) -> None:
        """`(.*/)?`: nothing, or anything that ends with `/` (a `**` that is not the last segment).

        Its entry consumes nothing: only from there may a match skip the rest, not once the `.*`
        took a character.
        """
        self.skip |= 1 << len(self.sets)
        self.any_number(NOTHING)
        self.any_number(ANY)
        self.one(literal("/"))

    def finish(self) -> Automaton:
        """Ready to match: each position filed by what it accepts, in one pass over them."""
        slash = [0, 0]  # the positions that take `/`: [consume once, consume and stay]
        other = [0, 0]  # the positions that take any character but `/` (before classes)
        points: set[int] = set()
        for index, chars in enumerate(self.sets):
            bit = 1 << index
            stays = 1 if self.many & bit else 0
            single = chars.single()
            if chars == NOTHING:  # the entry of `(.*/)?`
                continue
            if chars.negated and not chars.ranges:  # `?`, `*`, and the `.*` of `**` (`/` too)
                other[stays] |= bit
                if chars.slash:
                    slash[stays] |= bit
            elif chars.slash:  # the separator
                slash[0] |= bit
            elif single is not None:  # a literal character
                self._literals[single] = self._literals.get(single, 0) | bit
            else:  # a class: one character, never `/`
                self._classes.append((index, chars))
                for low, high in chars.ranges:
                    points.update((low, high + 1))
        self._slash = (slash[0], slash[1])
        self._other = (other[0], other[1])
        self._bounds = sorted(point for point in points if point <= MAX_CODE_POINT)
        return self

    def _class_mask(self, char: str) -> int:
        """The class positions that accept `char`, computed once per interval between class bounds."""
        if not self._classes:
            return 0
        interval = bisect.bisect_right(self._bounds, ord(char))
        mask = self._by_interval.get(interval)
        if mask is None:
            mask = 0
            for index, chars in self._classes:
                if chars.accepts(char):
                    mask |= 1 << index
            self._by_interval[interval] = mask
        return mask

    def _masks(self, char: str) -> tuple[int, int]:
        """(positions that consume `char` once, positions that consume it and stay)."""
        if char == "/":
            return self._slash
        once, stay = self._other
        return once | self._literals.get(char, 0) | self._class_mask(char), stay

    def _closure(self, state: int) -> int:
        """The state with every position reachable without consuming a character."""
        while True:
            wider = state | (state & self.many) << 1 | (state & self.skip) << 3
            if wider == state:
                return state
            state = wider

    def matches(self, path: str) -> bool:
        """Whether the whole path matches: one pass, a few integer operations per character."""
        state = self._closure(1)
        for char in path:
            once, stay = self._masks(char)
            state = self._closure((state & once) << 1 | (state & stay))
            if not state:
                return False
        return bool(state >> len(self.sets) & 1)
