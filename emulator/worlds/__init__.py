"""Bundled worlds: the demo repository that `corrections demo` and the benchmarks start from."""

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent


def demo_world_path() -> Path:
    """The demo world: about 60 issues exercising every rule of docs/rules.md."""
    return DIRECTORY / "demo.json"
