"""corrections.md and corrections.json from a hand-made outcome: dates, order, kept, the analysed issue."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from corrections.read.analysed import AnalysedIssue
from corrections.read.outcome import ReadOutcome
from corrections.render.files import corrections_json, render_corrections_md
from corrections.rules.models import (
    DuplicateNotice,
    DuplicateOutcome,
    IssueCorrection,
    Objector,
)
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import parse_vocabulary


def at(day: int) -> datetime:
    return datetime(2026, 11, day, 23, 30, tzinfo=UTC)


# The window's order (newest activity first) is 3, 2, 1, 4; the corrections are dated otherwise.
CORRECTIONS = [
    IssueCorrection(number=3, title="three", put_forward=("bug",)),  # kept bug, no correction
    IssueCorrection(
        number=2,
        title="two",
        put_forward=("bug",),
        duplicate=DuplicateNotice(of=1, outcome=DuplicateOutcome.OBJECTED, at=at(20), by=Objector.MAINTAINER),
        corrected_at=at(20),
    ),
    IssueCorrection(
        number=1,
        title='one "quoted"',
        put_forward=("bug", 'we"ird'),
        labels_removed=("bug",),
        corrected_at=at(25),
    ),
    IssueCorrection(number=4, title="four", thumbs_down=1, put_forward=("bug",)),  # 👎, time unknown
]


def outcome(analysed: AnalysedIssue | None = None) -> ReadOutcome:
    vocabulary = parse_vocabulary('- `bug`: x\n- `we"ird`: y\n- `docs`: z\n')
    return ReadOutcome(
        repository="octo/demo",
        settings=RuleSettings(vocabulary=vocabulary),
        corrections=tuple(CORRECTIONS),
        analysed=analysed,
    )


def test_lines_are_dated_latest_correction_first_with_reasons_pointed_at() -> None:
    text = render_corrections_md(outcome())
    lines = [line for line in text.splitlines() if line.startswith("#")][1:]  # after the heading
    assert lines == [
        '#1 "one \\"quoted\\"" | 2026-11-25 | maintainer removed label bug',
        '#2 "two" | 2026-11-20 | duplicate notice (of #1) objected to by a maintainer (the reason: see issues/2.md)',
        '#4 "four" | date unknown | 👎 from 1 person with push access (the reason: see issues/4.md)',
    ]
    assert "the lines come newest first." in text


def test_kept_is_said_below_the_fence_for_each_label_put_forward() -> None:
    text = render_corrections_md(outcome())
    opening = text.index("```")  # the lines' fence (kept analyses have a fence of their own, below)
    below = text[text.index("```", opening + 3) : text.index("What each label means")]
    assert '- "bug": kept 3 of 4' in below
    assert '- "we\\"ird": kept 1 of 1' in below  # a label name is JSON-quoted like any name
    assert '"docs"' not in below  # never put forward: not listed
    written = json.loads(corrections_json(outcome()))
    assert written["kept"] == {"bug": {"proposed": 4, "kept": 3}, 'we"ird': {"proposed": 1, "kept": 1}}
    assert [(c["number"], c["date"]) for c in written["corrections"]] == [
        (1, "2026-11-25"),
        (2, "2026-11-20"),
        (4, None),
    ]


def test_the_analysed_issue_is_never_a_line_nor_counted_as_kept() -> None:
    analysed = AnalysedIssue(number=1, title="one", body="")
    written = json.loads(corrections_json(outcome(analysed)))
    assert [c["number"] for c in written["corrections"]] == [2, 4]
    assert written["kept"] == {"bug": {"proposed": 3, "kept": 3}}
    text = render_corrections_md(outcome(analysed))
    assert "most similar to the issue you are analysing" in text
    assert "#1 " not in text
