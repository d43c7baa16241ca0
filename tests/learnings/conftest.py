"""Shared fixtures of the learnings tests: a factory of learnings read from JSON like the store."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from learnings.rules.model import Learning

SAMPLES = Path(__file__).resolve().parent / "samples"
MakeLearning = Callable[..., Learning]


def learning_json(
    id: str,
    text: str = "a learning",
    *,
    paths: Sequence[str] = (),
    updated: str = "2026-01-01T00:00:00Z",
    created: str = "2026-01-01T00:00:00Z",
    status: str = "active",
    kind: str = "note",
    category: str | None = None,
    source: dict[str, Any] | None = None,
) -> str:
    """One store line."""
    return json.dumps(
        {
            "v": 1,
            "id": id,
            "scope": "path" if paths else "repo",
            "kind": kind,
            "text": text,
            "paths": list(paths),
            "category": category,
            "source": source or {},
            "createdAt": created,
            "updatedAt": updated,
            "status": status,
        }
    )


@pytest.fixture
def make_learning() -> MakeLearning:
    """Build a Learning the way the store reads one (JSON text, strict)."""

    def make(id: str, text: str = "a learning", **fields: Any) -> Learning:
        return Learning.model_validate_json(learning_json(id, text, **fields))

    return make


@pytest.fixture
def line() -> Callable[..., str]:
    """Build one store line as JSON text."""
    return learning_json


@pytest.fixture
def samples() -> Path:
    """The folder of recorded sample files."""
    return SAMPLES
