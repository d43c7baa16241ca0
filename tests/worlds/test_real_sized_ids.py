"""Every world of the repository uses comment ids shaped like GitHub's: above 2^31.

Real comment ids outgrew GraphQL's 32-bit `databaseId` long ago; a world with ids like 1001
lets a reader that keys on `databaseId` pass every test and record nothing on a real repository.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.worlds import WorldSpec, generate
from tests.writepath.conftest import build_world

ROOT = Path(__file__).resolve().parents[2]
INT_MAX = 2**31 - 1
JSON_WORLDS = sorted(
    [
        ROOT / "emulator" / "worlds" / "demo.json",
        ROOT / "tests" / "emulator" / "small_world.json",
        *(p for p in (ROOT / "tests" / "worlds").glob("*.json") if not p.name.endswith(".expected.json")),
    ]
)


def comment_ids(world: dict[str, Any]) -> list[int]:
    """The ids of every comment of every issue and pull request."""
    return [
        item["id"]
        for issue in [*world.get("issues", []), *world.get("pull_requests", [])]
        for item in issue.get("timeline", [])
        if item.get("type") == "comment"
    ]


@pytest.mark.parametrize("path", JSON_WORLDS, ids=lambda p: p.name)
def test_json_worlds_use_real_sized_comment_ids(path: Path) -> None:
    ids = comment_ids(json.loads(path.read_text(encoding="utf-8")))
    assert ids and min(ids) > INT_MAX


def test_the_bench_generator_uses_real_sized_comment_ids() -> None:
    ids = comment_ids(generate(WorldSpec(issues=60)))
    assert ids and min(ids) > INT_MAX


def test_the_write_path_world_uses_real_sized_comment_ids() -> None:
    ids = comment_ids(build_world())
    assert ids and min(ids) > INT_MAX
