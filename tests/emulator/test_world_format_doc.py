"""docs/world-format.md stays true: its example is a valid world, and it names every key the emulator accepts."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel

from emulator import world

DOC = Path(__file__).resolve().parents[2] / "docs" / "world-format.md"


def _models() -> list[type[BaseModel]]:
    """Every model of the world file: the file, its objects and each timeline item."""
    return [
        world.WorldFile,
        world.RepositoryInfo,
        world.Issue,
        world.CommentItem,
        world.LabelItem,
        world.ClosedItem,
        world.ReopenedItem,
        world.DuplicateItem,
        world.Reaction,
        world.Review,
        world.ReviewThread,
        world.ReviewComment,
        world.LabelInfo,
        world.RateLimitInfo,
        world.ServerTime,
    ]


def test_the_example_of_the_document_is_a_world_the_emulator_serves() -> None:
    text = DOC.read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)\n```", text, re.DOTALL)
    assert example is not None
    parsed = world.parse_world(example.group(1))
    issue = parsed.issues[0]
    derived = world.derive(issue)
    assert derived.labels == ()  # labeled by the assistant, then unlabeled by alice
    assert parsed.permissions["bob"] == "WRITE"
    comment = issue.timeline[0]
    assert isinstance(comment, world.CommentItem)
    assert comment.id > 2**31


def test_the_document_names_every_key_the_emulator_accepts() -> None:
    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_]+)`", text))
    missing = {
        f"{model.__name__}.{key}"
        for model in _models()
        for key in model.model_fields
        if key not in named and key != "note"
    }
    assert missing == set(), "docs/world-format.md does not describe these keys"
    assert "`note`" in text.replace('"note"', "`note`")
