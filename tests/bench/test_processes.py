"""The whole-process comparison's floor (bench/processes.py, bench/plain_client.py): the product's
requests, recorded from the emulator's log, are sent again by the plain client in the same waves
and answered alike."""

from __future__ import annotations

import json
import os
from pathlib import Path

from bench.measure import NAME, OWNER, TOKEN, dependent_waves
from bench.plain_client import main as plain_client
from bench.processes import _waves
from bench.worlds import WorldSpec, generate
from corrections.commands.cli import main
from emulator import serve_in_thread
from emulator.store import Store
from emulator.world import parse_world


def test_the_plain_client_sends_the_products_requests_again_in_its_waves(tmp_path: Path) -> None:
    world = {**generate(WorldSpec(issues=200)), "collaborators_via_graphql": "forbidden"}
    with serve_in_thread(Store(parse_world(world)), latency_ms=20) as server:
        server.keep_requests = True
        os.environ["GITHUB_TOKEN"] = TOKEN
        try:
            argv = [
                "read",
                "--repo",
                f"{OWNER}/{NAME}",
                "--api-url",
                server.url,
                "--out",
                str(tmp_path / "c"),
            ]
            assert main(argv) == 0
        finally:
            os.environ.pop("GITHUB_TOKEN", None)
        server.keep_requests = False
        recorded = list(server.entries)
        waves = _waves(server, recorded)
        assert sum(len(wave) for wave in waves) == len(recorded) and len(waves) == dependent_waves(recorded)
        replay = tmp_path / "requests.json"
        replay.write_text(json.dumps(waves), encoding="utf-8")
        assert plain_client([str(replay)]) == 0
        again = server.entries[len(recorded) :]

    def sent(entries: list[dict[str, object]]) -> list[tuple[str, str, str]]:
        return sorted((str(e["operation"]), str(e["path"]), str(e["status"])) for e in entries)

    assert sent(again) == sent(recorded) and dependent_waves(again) == dependent_waves(recorded)
    assert {e["endpoint"] for e in recorded} == {"graphql", "rest"}
