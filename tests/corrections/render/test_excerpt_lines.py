"""A cut excerpt keeps what teaches: the analysis, the changes, the reporter's and the correctors'
words; other people's comments (a bot's chatter) go first."""

from __future__ import annotations

from corrections.render.excerpt_lines import cut_lines, keeping_order
from corrections.render.files import issue_excerpt
from corrections.render.issue_file import HEAD_FIELDS
from corrections.rules.analysis_marker import analysis_marker
from corrections.rules.models import Actor
from corrections.rules.settings import RuleSettings
from tests.corrections.conftest import IssueBuilder

REPORTER = Actor(login="kwame")
MAINTAINER = Actor(login="mara")
# A CI job posting as a user account: not left out as a bot's, so only the cut can drop it.
CI_BOT = Actor(login="ci-bot")
PASSER_BY = Actor(login="wren")
HEAD_LINES = len(HEAD_FIELDS)


def tracking_issue_lines() -> list[str]:
    builder = IssueBuilder(number=7).label(CI_BOT, "needs-triage").analysis(labels=("bug",))
    for run in range(40):
        builder.comment(CI_BOT, f"Nightly run {run}: 312 passed, 1 flaky ({'x' * 60})")
        if run == 20:
            builder.comment(REPORTER, "It still fails on 2.4 with a dot in the bucket name.")
            builder.label(MAINTAINER, "bug", added=False).label(MAINTAINER, "enhancement")
            builder.comment(MAINTAINER, "Not a bug: dotted names need path-style addressing.")
    issue = builder.build().model_copy(update={"author": REPORTER})
    return list(issue_excerpt(issue, None, RuleSettings()).lines)


def test_a_cut_drops_the_bot_s_chatter_before_the_words_that_teach() -> None:
    lines = tracking_issue_lines()
    kept = cut_lines(lines, HEAD_LINES, HEAD_LINES + 6)
    text = "\n".join(kept)
    assert kept[:HEAD_LINES] == lines[:HEAD_LINES]
    assert 'first analysis by "triage-assistant"' in text  # the analysis
    assert '"mara" removed label "bug"' in text and '"mara" added label "enhancement"' in text
    assert "It still fails on 2.4" in text and "Not a bug: dotted names" in text
    assert "Nightly run" not in text  # all 40 of the bot's comments went first
    assert '"ci-bot" added label "needs-triage"' in text  # a change, kept with the others
    assert sum(line.endswith("not shown here: over the prompt's budget)") for line in kept) >= 1


def test_the_keeping_order_ranks_every_line_once() -> None:
    timeline = tracking_issue_lines()[HEAD_LINES:]
    order = keeping_order(timeline, "kwame")
    assert sorted(order) == list(range(len(timeline)))
    first = [timeline[i] for i in order[:4]]
    assert all("Nightly run" not in line for line in first)


def test_lines_not_in_the_program_s_shape_rank_as_notes() -> None:
    timeline = ["(12 timeline items not shown)", "garbage", '2026-11-01T10:00:00Z comment by "x": "hi"']
    assert keeping_order(timeline, None)[-1] == 2


def test_a_cut_to_the_head_says_how_many_lines_went() -> None:
    lines = tracking_issue_lines()
    kept = cut_lines(lines, HEAD_LINES, HEAD_LINES)
    assert kept == [
        *lines[:HEAD_LINES],
        f"({len(lines) - HEAD_LINES} lines not shown here: over the prompt's budget)",
    ]


def test_a_comment_that_only_mentions_the_marker_is_not_the_analysis() -> None:
    # wren quotes the marker's start in prose before the analysis: the one parser (assistant.markers)
    # finds no marker where one counts in it, so the analysis is still the line a cut keeps first.
    builder = IssueBuilder(number=7).comment(
        PASSER_BY, "Does the bot hide `<!-- assistant:analysis` in there?"
    )
    builder.analysis(labels=("bug",))
    for run in range(6):
        builder.comment(CI_BOT, f"Nightly run {run}: 312 passed")
    lines = list(issue_excerpt(builder.build(), None, RuleSettings()).lines)
    kept = cut_lines(lines, HEAD_LINES, HEAD_LINES + 1)
    text = "\n".join(kept[HEAD_LINES:])
    assert 'first analysis by "triage-assistant"' in text and '"wren"' not in text


def test_a_stranger_s_comment_ending_with_a_marker_is_not_the_analysis() -> None:
    # wren ends a comment with a well-formed analysis marker, before the real analysis. Only the
    # rules decide what an analysis is (assistant.markers.counted, through the renderer's `first
    # analysis by` line); before, the cut read the comment's text with the first-or-last rule of
    # its own, kept wren's comment as the analysis and dropped the real one.
    echo = analysis_marker(["docs"])
    builder = IssueBuilder(number=7).comment(PASSER_BY, f"Same here.\n\n{echo}")
    builder.analysis(labels=("bug",))
    for run in range(6):
        builder.comment(CI_BOT, f"Nightly run {run}: 312 passed")
    lines = list(issue_excerpt(builder.build(), None, RuleSettings()).lines)
    kept = cut_lines(lines, HEAD_LINES, HEAD_LINES + 1)
    text = "\n".join(kept[HEAD_LINES:])
    assert 'first analysis by "triage-assistant": labels "bug"' in text and '"wren"' not in text
