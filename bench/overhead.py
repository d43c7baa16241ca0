"""Local overhead of `corrections read`, a whole process each (issue 26): where the time between
GitHub's answers goes, and the floors a first request could be sent from.

    python -m bench.overhead [--runs N]

Measured on the demo world with 50 ms latency (`--latency-ms`): spawn to the first request reaching the emulator,
the gap between the first answer and the next request (the client's own work between waves), and
spawn to exit; and two floors, whole processes that only import gql.transport.aiohttp (what the
first request waits for today) or the standard library's HTTP client (what a first request sent
without gql would wait for).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from bench.measure import TOKEN, import_floor
from emulator import serve_in_thread
from emulator.worlds import demo_world_path


def _stdlib_floor(runs: int) -> float:
    found = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import http.client, ssl, json, asyncio"], check=True)
        found.append(time.perf_counter() - started)
    return statistics.median(found)


def read_overhead(runs: int = 5, latency_ms: int = 50) -> dict[str, Any]:
    """Medians over `runs` reads of the demo world, `latency_ms` added to every request."""
    first, gap, total = [], [], []
    env = {**os.environ, "GITHUB_TOKEN": TOKEN}
    with (
        serve_in_thread(demo_world_path(), latency_ms=latency_ms) as server,
        tempfile.TemporaryDirectory() as out,
    ):
        for _ in range(runs):
            before = len(server.log())
            argv = [sys.executable, "-m", "corrections", "read", "--repo", "octo/demo"]
            started_wall = time.perf_counter()
            subprocess.run(
                [*argv, "--api-url", server.url, "--out", out], env=env, capture_output=True, check=True
            )
            total.append(time.perf_counter() - started_wall)
            entries = sorted(server.log()[before:], key=lambda entry: float(entry["start_s"]))
            first.append(float(entries[0]["start_s"]) - started_wall)
            window_end = float(entries[0]["end_s"])
            later = [float(entry["start_s"]) for entry in entries[1:]]
            gap.append(min(later) - window_end)
    return {
        "first_request_s": round(statistics.median(first), 3),
        "between_waves_1_and_2_s": round(statistics.median(gap), 3),
        "spawn_to_exit_s": round(statistics.median(total), 3),
        "floor_gql_import_s": round(import_floor(runs), 3),
        "floor_stdlib_http_s": round(_stdlib_floor(runs), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.overhead", description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--latency-ms", type=int, default=50)
    args = parser.parse_args()
    print(json.dumps(read_overhead(args.runs, args.latency_ms)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
