"""No title, whatever it holds, adds a line to the context, closes its fence, or stays invisible."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from corrections.models import IssueCorrection
from corrections.render import correction_line
from corrections.untrusted import INVISIBLE_CATEGORIES, clean_line, fence_for, json_text

HOSTILE = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(["`", "\n", "\r", "\u2028", "\u2029", "\u202e", "\u200b", "\U000e0041", '"', "\\"]),
    ),
    max_size=200,
).map(lambda s: s.replace("~", "```"))  # backtick runs of any length


@settings(max_examples=300)
@given(HOSTILE)
def test_a_title_never_adds_a_line_nor_closes_the_fence(title: str) -> None:
    line = correction_line(IssueCorrection(number=1, title=title, labels_removed=("bug",)))
    fence = fence_for([line])
    assert "\n" not in line and "\r" not in line
    assert fence not in line
    assert not line.lstrip().startswith("`")
    assert all(unicodedata.category(char) not in INVISIBLE_CATEGORIES for char in line)


@settings(max_examples=300)
@given(HOSTILE)
def test_json_title_round_trips_to_the_cleaned_title(title: str) -> None:
    cleaned = clean_line(title)
    assert json.loads(json_text(cleaned)) == cleaned
    assert "  " not in cleaned and cleaned == cleaned.strip()


def test_invisible_characters_are_removed_and_white_space_folded() -> None:
    assert clean_line("Crash\u200b in\u202e  parser\n\tnow\U000e0041") == "Crash in parser now"


def test_fence_is_longer_than_any_backtick_run() -> None:
    assert fence_for(["a ``````` b"]) == "````````"
    assert fence_for(["plain"]) == "```"
