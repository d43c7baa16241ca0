"""GitHub's answer to the rule models: a field both models name is copied unchanged."""

from __future__ import annotations

from corrections.rules import from_github
from corrections.rules.models import Issue
from queries import models as gh


def test_every_issue_field_comes_from_the_answer() -> None:
    """A field the rule model gains must come from GitHub's answer (by name) or be derived here;
    one that neither fills would silently keep its default on every issue."""
    derived = {"author", "events", "timeline_complete"}
    assert set(Issue.model_fields) == set(from_github._TAKEN_AS_IS) | derived
    assert set(from_github._TAKEN_AS_IS) <= set(gh.IssueNode.model_fields)
