"""An analysis a maintainer hid on GitHub (`minimizedReason`): hidden as spam, abuse or off-topic
it is not counted (neither an example kept nor a correction, and a warning says so); hidden as
outdated, resolved or a duplicate it counts as before (docs/rules.md, "Hidden analyses")."""

from __future__ import annotations

import pytest

from corrections.rules.issue import analyses, first_analysis
from corrections.rules.models import Comment
from corrections.rules.settings import RuleSettings
from tests.corrections.conftest import IssueBuilder


def _hide(builder: IssueBuilder, index: int, reason: str) -> None:
    event = builder.events[index]
    assert isinstance(event, Comment)
    builder.events[index] = event.model_copy(update={"hidden": reason})


@pytest.mark.parametrize("reason", ["OFF_TOPIC", "SPAM", "ABUSE"])
def test_an_analysis_hidden_as_noise_is_not_counted(
    issue: IssueBuilder, settings: RuleSettings, reason: str
) -> None:
    issue.analysis(labels=("bug",))
    _hide(issue, 0, reason)
    found, warnings = analyses(issue.build(), settings)
    assert found == [] and first_analysis(issue.build(), settings) is None
    assert len(warnings) == 1 and "hidden on GitHub as" in warnings[0] and "not counted" in warnings[0]


@pytest.mark.parametrize("reason", ["OUTDATED", "RESOLVED", "DUPLICATE", "HIDDEN"])
def test_an_analysis_hidden_as_outdated_or_resolved_still_counts(
    issue: IssueBuilder, settings: RuleSettings, reason: str
) -> None:
    issue.analysis(labels=("bug",))
    _hide(issue, 0, reason)
    found, warnings = analyses(issue.build(), settings)
    assert [a.node_id for a in found] == ["A0"] and warnings == []


def test_a_later_first_analysis_counts_when_the_first_was_hidden_as_off_topic(
    issue: IssueBuilder, settings: RuleSettings
) -> None:
    issue.analysis(labels=("bug",)).analysis(labels=("docs",))
    _hide(issue, 0, "OFF_TOPIC")
    first = first_analysis(issue.build(), settings)
    assert first is not None and first.node_id == "A1"
