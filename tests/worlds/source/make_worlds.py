"""Write every test world: `python -m tests.worlds.source.make_worlds` from the repository root.

The JSON files are committed; rerun this after changing a world's source and review the diff.
The expected results are NOT generated: they are counted by hand (tests/worlds/*.expected.json).
"""

from __future__ import annotations

from pathlib import Path

from tests.kit.world import write_world
from tests.worlds.source import world_demo, world_focused

ROOT = Path(__file__).resolve().parents[3]


def main() -> None:
    """Write the demo world and the focused worlds."""
    write_world(ROOT / "emulator" / "worlds" / "demo.json", world_demo.build())
    focused = {
        "labels": world_focused.labels_world,
        "duplicates": world_focused.duplicates_world,
        "thumbs": world_focused.thumbs_world,
        "forbidden": world_focused.forbidden_world,
        "window": world_focused.window_world,
        "trust": world_focused.trust_world,
    }
    for name, build in focused.items():
        write_world(ROOT / "tests" / "worlds" / f"{name}.json", build())


if __name__ == "__main__":
    main()
