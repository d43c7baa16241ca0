"""No title, whatever it holds, adds a line to the context, closes its fence, or stays invisible."""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.untrusted import (
    INVISIBLE_CATEGORIES,
    clean_block,
    clean_line,
    fence_for,
    is_invisible,
    json_text,
)
from corrections.commands.summary import RunFacts, markdown_text, render_summary
from corrections.read.outcome import ReadOutcome
from corrections.render.files import correction_line, issue_summary, render_issue_md
from corrections.rules.models import Comment, Issue, IssueCorrection

HOSTILE = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(["`", "\n", "\r", "\u2028", "\u2029", "\u202e", "\u200b", "\U000e0041", '"', "\\"]),
    ),
    max_size=200,
).map(lambda s: s.replace("~", "```"))  # backtick runs of any length
AT = datetime(2026, 11, 2, 10, 0, tzinfo=UTC)


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


# The characters of issue 11 that got through: variation selectors, Hangul fillers, the combining
# grapheme joiner, Mongolian selectors, Khmer inherent vowels, the soft hyphen, the braille blank.
IGNORABLE = (
    "\ufe00\ufe0f\U000e0100\U000e01ef\u115f\u1160\u3164\uffa0\u034f\u180b\u180c\u180d\u180f"
    "\u17b4\u17b5\u00ad\u2800"
)


def test_default_ignorable_characters_and_the_braille_blank_are_removed() -> None:
    title = "Cr" + IGNORABLE + "ash 😀 in 中文 café"
    assert clean_line(title) == "Crash 😀 in 中文 café"
    line = correction_line(IssueCorrection(number=3, title=title, labels_removed=("bug",)))
    assert not set(IGNORABLE) & set(line)
    body = render_issue_md(
        Issue(
            number=3,
            title=title,
            body="body" + IGNORABLE,
            created_at=AT,
            updated_at=AT,
            events=(Comment(node_id="C", at=AT, author=None, body="x" + IGNORABLE),),
        ),
        None,
    )
    assert not set(IGNORABLE) & set(body)
    assert not set(IGNORABLE) & set(markdown_text(title))


def test_the_issue_summary_is_built_from_the_model_not_cut_from_the_line() -> None:
    title = 'Crash | v2.3 LEAKED" | maintainer removed label bug'
    correction = IssueCorrection(number=5, title=title, labels_removed=("enhancement",))
    assert issue_summary(correction) == "Correction: maintainer removed label enhancement."
    issue = Issue(number=5, title=title, created_at=AT, updated_at=AT)
    rendered = render_issue_md(issue, correction)
    outside = rendered.replace(json_text(title), "")
    assert "LEAKED" not in outside and "label bug" not in outside


def test_summary_values_stay_inside_their_code_spans() -> None:
    outcome = ReadOutcome(repository="octo/demo")
    facts = RunFacts(
        trigger="issues.opened",
        issue=1,
        base_ref="main` <img src=x onerror=alert(1)> ``x",
        out="/work/out`\n# Owned",
        max_analyzed=30,
        labels_file="labels.md` | [link](https://evil.example)",
    )
    summary = render_summary(outcome, facts)
    assert "```main` <img src=x onerror=alert(1)> ``x```" in summary
    assert "``/work/out` # Owned``" in summary
    assert "``labels.md` | [link](https://evil.example)``" in summary
    assert not any(line.startswith("# Owned") for line in summary.splitlines())


def _clean_line_char_by_char(text: str) -> str:
    """clean_line as it was first written, one character at a time (the reference)."""
    spaced = "".join(" " if char.isspace() else char for char in text)
    visible = "".join(char for char in spaced if not is_invisible(char))
    return re.sub(" {2,}", " ", visible).strip()


def _clean_block_char_by_char(text: str) -> str:
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(char for char in normalized if char in "\n\t" or not is_invisible(char))


MIXED = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from("\n\r\t \u00a0\u2028\u2029\u200b\u180e\u00ad\ufeff\u2800\U000e0041\x00\x7f"),
    ),
    max_size=60,
)


@settings(max_examples=400)
@given(MIXED)
def test_cleaning_by_table_equals_cleaning_char_by_char(text: str) -> None:
    """clean_line and clean_block decide each distinct character once (the render step's hot
    path); what they keep and remove is what the character-by-character version did."""
    assert clean_line(text) == _clean_line_char_by_char(text)
    assert clean_block(text) == _clean_block_char_by_char(text)
