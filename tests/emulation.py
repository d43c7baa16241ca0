"""The one way a test starts GitHub's emulator: ``emulate(world, **keys)`` from a fixture.

``emulate`` (one test), ``emulate_module`` (one module) and ``demo_server`` (the demo world,
shared by one module's tests) are fixtures of tests/conftest.py over ``Emulators``; every
emulator a fixture started is stopped when the fixture's scope ends, whatever the test did.
"""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

from emulator import Server, WorldFile, serve_in_thread
from emulator.worlds import demo_world_path

DEMO = demo_world_path()
# GITHUB_TOKEN's GraphQL budget (``rate_limit`` of a world): 1,000 points an hour.
GITHUB_TOKEN_BUDGET = {"limit": 1000, "remaining": 1000, "reset_in_s": 3600}


def world_dict(world: Any) -> dict[str, Any]:
    """A world (a path, a dict or a WorldFile) as a new dict the caller may change."""
    if isinstance(world, str | Path):
        found: dict[str, Any] = json.loads(Path(world).read_text(encoding="utf-8"))
        return found
    if isinstance(world, WorldFile):
        return world.model_dump(mode="json")
    return copy.deepcopy(dict(world))


class Emulators(contextlib.ExitStack):
    """Starts emulators on worlds and stops every one of them when it closes."""

    def __call__(self, world: Any = DEMO, *, latency_ms: int = 0, **keys: Any) -> Server:
        """A running emulator on ``world`` (default the demo world) with top-level ``keys`` replaced.

        ``emulate(DEMO, rate_limit={...})`` serves the demo world under another budget; the world
        file itself is never changed.
        """
        if keys:
            world = {**world_dict(world), **keys}
        return self.enter_context(serve_in_thread(world, latency_ms=latency_ms))
