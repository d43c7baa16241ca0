"""The conformance scenario: the product's own commands, run one after another against a sandbox
repository (on github.com, or the emulator serving tests/conformance/sandbox/world.json).

Each step is a command line of the product as a user types it; `{repo}`, `{api_url}` and `{out}`
are filled in. Together they send every query of queries/ the read, the quality report and the
learnings sync use, the REST permission look-ups, and the sync's mutations: the first sync
records the world's `remember` command (createRef, createCommitOnBranch, createPullRequest, and
addReaction on the command), the second reads its own pull request back and finds nothing new.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SANDBOX_WORLD = Path(__file__).resolve().parent / "sandbox" / "world.json"


@dataclass(frozen=True)
class Step:
    """One command of the scenario: its name (the recording's file) and its arguments."""

    name: str
    program: str  # the package run as `python -m PROGRAM`
    arguments: tuple[str, ...]

    def argv(self, *, repo: str, api_url: str, out: Path) -> list[str]:
        """The command's arguments with the sandbox, the endpoint and a scratch folder filled in."""
        filled = [a.format(repo=repo, api_url=api_url, out=out / self.name) for a in self.arguments]
        return ["-m", self.program, *filled]


SCENARIO = (
    Step("read", "corrections", ("read", "--repo", "{repo}", "--api-url", "{api_url}", "--out", "{out}")),
    Step(
        "quality", "corrections", ("quality", "--repo", "{repo}", "--api-url", "{api_url}", "--out", "{out}")
    ),
    Step("sync", "learnings", ("sync", "--repo", "{repo}", "--api-url", "{api_url}")),
    Step("sync-again", "learnings", ("sync", "--repo", "{repo}", "--api-url", "{api_url}")),
)
