"""`corrections demo`: the emulator serves the bundled demo repository and the read runs against it.

No token and no network: the whole job, offline, as `read` would run it against GitHub.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from corrections.commands import SUMMARIES

if TYPE_CHECKING:
    from corrections.render.context import ReadDone

NAME = "demo"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Serve the bundled demo repository with the emulator on loopback and read it, as `read` would "
    "read GitHub. No token and no network needed."
)
EXAMPLES = ("corrections demo --out corrections-demo",)
TOKEN = False

DEMO_TOKEN = "demo-token"  # noqa: S105 - the emulator accepts any token; this one is no secret.
# The demo repository's deliberately broken data (tests/worlds/demo.expected.md), as the start of
# the warning each one draws: the demo shows that the reader skips what it cannot read, and says so.
PLANTED_FAULTS = (
    "#52 comment 2400001856: analysis marker does not parse",
    "#14 comment 2400000197: analysis marker does not parse",
    "HEAD:.github/assistant/learnings.jsonl:5: not valid JSON",
    "HEAD:.github/assistant/learnings.jsonl:6: unknown version",
)


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class DemoOptions:
    """Where the demo's context folder goes."""

    out: Path = Path("corrections-demo")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        default="corrections-demo",
        metavar="DIR",
        help="folder for the context files (default: %(default)s)",
    )


def options_from(args: argparse.Namespace) -> DemoOptions:
    return DemoOptions(out=Path(args.out))


def run(options: DemoOptions) -> int:
    """Serve the demo repository, read it into `out`, and write the prompt; the exit status."""
    import asyncio

    from assistant.config import Config
    from assistant.files import write_files
    from corrections.commands.read_context import run_read
    from corrections.read.options import ReadOptions
    from corrections.read.status import Failed
    from corrections.render.prompt import PROMPT_FILE, assemble_prompt, context_of
    from corrections.render.prompt_budget import Budget
    from emulator import serve
    from emulator.worlds import demo_world_path

    out = options.out

    async def main() -> ReadDone:
        async with serve(demo_world_path()) as server:
            _stderr(f"corrections: demo repository octo/demo served by the emulator at {server.url}")
            read = ReadOptions(
                owner="octo", name="demo", config=Config(), api_url=server.url, time_budget=30.0
            )
            paths = ("src/demo/sync/engine.py",)  # as if a change touched the sync engine
            return await asyncio.to_thread(run_read, read, DEMO_TOKEN, out, paths=paths)

    done = asyncio.run(main())
    outcome = done.outcome
    _stderr(planted_note(outcome.warnings))
    prompt = assemble_prompt(context_of(done.files), issue=None, budget=Budget())
    write_files(out, {PROMPT_FILE: prompt.text})
    _stderr(f"corrections: wrote {out}/{PROMPT_FILE}: {prompt.describe()}")
    _stderr(
        f"corrections: done. Open {out}/corrections.md (and {out}/issues/, {out}/corrections.json, "
        f"{out}/{PROMPT_FILE})"
    )
    return 1 if isinstance(outcome.status, Failed) else 0


def planted_note(warnings: Sequence[str]) -> str:
    """Which of the run's warnings are the demo's planted faults, and which (none, normally) are not."""
    planted = [w for w in warnings if w.startswith(PLANTED_FAULTS)]
    others = len(warnings) - len(planted)
    note = (
        f"corrections: {len(planted)} of the {len(warnings)} warnings above are the demo's planted "
        "faults (broken markers on #14 and #52, broken lines 5 and 6 of learnings.jsonl): "
        "the reader skips them and says so"
    )
    return (
        note if not others else f"{note}; {others} {'is' if others == 1 else 'are'} not planted: look at it"
    )
