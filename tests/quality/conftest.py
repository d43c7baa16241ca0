"""Running `corrections quality` against a world served by the emulator."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from corrections.commands.cli import main
from tests.emulation import Emulators

RunQuality = Callable[..., tuple[int, Path]]


@pytest.fixture
def run_quality(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, emulate: Emulators) -> RunQuality:
    """Serve a world, run `corrections quality` on it, return the status and the output folder."""

    def run(world: Path, *extra: str) -> tuple[int, Path]:
        repository = json.loads(world.read_text(encoding="utf-8"))["repository"]
        monkeypatch.setenv("GITHUB_TOKEN", "quality-token")
        out = tmp_path / "quality"
        server = emulate(world)
        status = main(
            [
                "quality",
                "--repo",
                f"{repository['owner']}/{repository['name']}",
                "--api-url",
                server.url,
                "--out",
                str(out),
                *extra,
            ]
        )
        return status, out

    return run
