"""Excerpts that teach (issue 31, issue 37 item 5): a bot's label changes and comments never fill
an excerpt, and an analysis is shown as what its marker says, not as escaped marker text."""

from __future__ import annotations

from corrections.render.excerpt_lines import cut_lines
from corrections.render.files import issue_excerpt
from corrections.render.issue_file import HEAD_FIELDS
from corrections.rules.models import Actor
from corrections.rules.settings import RuleSettings
from tests.corrections.conftest import IssueBuilder

REPORTER = Actor(login="kwame")
MAINTAINER = Actor(login="mara")
CI_BOT = Actor(login="ci-bot", typename="Bot")


def _lines() -> list[str]:
    builder = IssueBuilder(number=7).label(CI_BOT, "needs-triage").analysis(labels=("bug",))
    for run in range(40):
        builder.comment(CI_BOT, f"Nightly run {run}: 312 passed")
        builder.label(CI_BOT, "needs-triage", added=run % 2 == 1)
    builder.label(MAINTAINER, "bug", added=False).label(MAINTAINER, "enhancement")
    issue = builder.build().model_copy(update={"author": REPORTER})
    return list(issue_excerpt(issue, None, RuleSettings()).lines)


def test_no_bot_item_fills_an_excerpt() -> None:
    text = "\n".join(_lines())
    assert "ci-bot" not in text and "Nightly run" not in text
    assert "(81 timeline items by bots not shown)" in text
    assert '"mara" removed label "bug"' in text and '"mara" added label "enhancement"' in text


def test_an_analysis_is_shown_as_what_it_says() -> None:
    lines = _lines()
    analysis = next(line for line in lines if " first analysis by " in line)
    assert 'first analysis by "triage-assistant": labels "bug"; text: ' in analysis
    assert "assistant:analysis" not in analysis and '\\"v\\"' not in analysis
    # A cut still keeps the analysis first of all.
    kept = cut_lines(lines, len(HEAD_FIELDS), len(HEAD_FIELDS) + 1)
    assert analysis in kept
