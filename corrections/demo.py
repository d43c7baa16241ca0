"""`corrections demo`: the emulator serves the bundled demo repository and the read runs against it.

No token and no network: the whole job, offline, as `read` would run it against GitHub.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from assistant.config import Config
from assistant.files import write_files
from corrections.options import ReadOptions
from corrections.outcome import ReadOutcome
from corrections.prompt import PROMPT_FILE, assemble_prompt, read_context
from corrections.prompt_budget import DEFAULT_MAX_CHARS
from corrections.read import run_read
from emulator import serve
from emulator.worlds import demo_world_path

DEMO_TOKEN = "demo-token"  # noqa: S105 - the emulator accepts any token; this one is no secret.


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_demo(out: Path) -> int:
    """Serve the demo repository, read it into `out`, and write the prompt; the exit status."""

    async def main() -> ReadOutcome:
        async with serve(demo_world_path()) as server:
            _stderr(f"corrections: demo repository octo/demo served by the emulator at {server.url}")
            options = ReadOptions(
                owner="octo",
                name="demo",
                out=out,
                config=Config(),
                api_url=server.url,
                base_ref="HEAD",
                paths=("src/demo/sync/engine.py",),  # as if a change touched the sync engine
                time_budget=30.0,
            )
            return await asyncio.to_thread(run_read, options, DEMO_TOKEN)

    outcome = asyncio.run(main())
    prompt = assemble_prompt(read_context(out), issue=None, max_chars=DEFAULT_MAX_CHARS)
    write_files(out, {PROMPT_FILE: prompt.text})
    _stderr(f"corrections: wrote {out}/{PROMPT_FILE}: {prompt.describe()}")
    _stderr(
        f"corrections: done. Open {out}/corrections.md (and {out}/issues/, {out}/corrections.json, "
        f"{out}/{PROMPT_FILE})"
    )
    return 0 if not outcome.failed else 1
