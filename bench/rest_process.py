"""`python -m bench.rest_process BASE_URL OWNER/NAME`: the REST reader as a process of its own.

The whole-process comparison (bench/processes.py) runs it beside `corrections read`: the same
rules over the same world, each started, read and exited as a user waits for it. It prints one
line, the window and the corrected issues it found; the token comes from GITHUB_TOKEN.
"""

from __future__ import annotations

import asyncio
import os
import sys

from assistant.config import Config
from bench.rest_reader import read_rest


def main(argv: list[str]) -> int:
    """Read, print what was found, exit 0."""
    base_url, repository = argv
    owner, name = repository.split("/", 1)
    outcome = asyncio.run(read_rest(base_url, os.environ["GITHUB_TOKEN"], owner, name, Config()))
    corrected = sum(1 for correction in outcome.corrections if correction.is_corrected)
    print(f"rest reader: window {len(outcome.window)} issues, {corrected} corrected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
