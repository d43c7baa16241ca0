"""Tokens counted by o200k_base (GPT-4o's tokenizer), offline, and bounded on hostile text."""

from __future__ import annotations

import re

import pytest

from corrections.render import tokens
from corrections.render.tokens import RUN, LineCounter, count_tokens, fit_tokens


def test_known_counts_of_o200k_base() -> None:
    # tiktoken's o200k_base: "hello world" is [24912, 2375]; the empty text is no token.
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0
    assert tokens._encoding().encode_ordinary("hello world") == [24912, 2375]


def test_a_long_run_is_cut_before_it_is_encoded(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    real = tokens._encoding()

    class Recording:
        def encode_ordinary(self, text: str) -> list[int]:
            seen.append(text)
            return real.encode_ordinary(text)

    monkeypatch.setattr(tokens, "_encoding", Recording)
    hostile = "a" * 65_536 + " " * 10_000 + "🙂" * 5_000 + " word"
    total = count_tokens(hostile)
    longest = re.compile(rf"\S{{{RUN + 1}}}|\s{{{RUN + 1}}}")
    assert seen and not any(longest.search(part) for part in seen)
    assert "".join(seen) == hostile
    assert total >= len(real.encode_ordinary("a" * 4096)) * 16  # a cut never lowers the count


def test_a_short_text_counted_again_is_taken_from_the_cache_and_a_long_one_is_not_kept() -> None:
    line = '#12 "Upload times out" | 2026-11-02 | removed: performance; added: bug\n'
    assert count_tokens(line) == tokens._count(line) == count_tokens(line)
    assert tokens._count_short.cache_info().currsize >= 1
    long = "word " * (tokens._CACHED_CHARS // 5 + 1)
    before = tokens._count_short.cache_info()
    assert count_tokens(long) == tokens._count(long)
    assert tokens._count_short.cache_info() == before  # neither a hit nor a kept entry


def test_the_line_sum_is_never_under_the_whole_count() -> None:
    text = "# Title\n\nSome prose, with `code` and\n\n\n  indented lines.\n" * 20
    assert LineCounter()(text) >= count_tokens(text)


def test_a_long_text_is_fitted_to_its_tokens() -> None:
    body = "The sync hangs when the bucket name has a dot. " * 2_000  # about 22,000 tokens
    fitted, cut = fit_tokens(body, 2_000)
    assert cut and body.startswith(fitted)
    assert 1_990 <= count_tokens(fitted) <= 2_000
    assert fit_tokens("short", 2_000) == ("short", False)
