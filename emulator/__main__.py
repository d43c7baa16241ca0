"""``python -m emulator --world FILE [--host H] [--port P] [--latency-ms N]``.

Prints ``listening on URL`` first, serves until SIGTERM or SIGINT, then exits 0; a bad
world file is one line on stderr naming the file and the problem, and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys

from emulator.server import serve
from emulator.store import Store
from emulator.world import WorldError, load_world


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m emulator", description="GitHub's GraphQL API over a world file"
    )
    parser.add_argument("--world", required=True, help="world file (JSON, see docs/world-format.md)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency-ms", type=int, default=0, help="delay added to every request")
    return parser.parse_args(argv)


async def _run(store: Store, host: str, port: int, latency_ms: int) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with serve(store, host=host, port=port, latency_ms=latency_ms) as server:
        print(f"listening on {server.url}", flush=True)
        await stop.wait()


def main(argv: list[str] | None = None) -> int:
    """Serve the world until stopped; 2 for a bad world file."""
    args = _arguments(argv)
    try:
        store = Store(load_world(args.world))
    except WorldError as error:
        print(f"emulator: {error}", file=sys.stderr)
        return 2
    try:
        asyncio.run(_run(store, args.host, args.port, args.latency_ms))
    except OSError as error:
        print(
            f"emulator: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr
        )
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
