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


def test_the_summary_shows_each_process_spread_and_each_goal_s_verdict() -> None:
    from bench.goals import goals
    from bench.processes import summary

    def spread(low: float, middle: float, high: float) -> dict[str, float]:
        return {"min": low, "median": middle, "max": high}

    run = {
        "pairs": 3,
        "requests": 11,
        "waves": 3,
        "load_average": [0.5, 0.7],
        "wall_s": {name: spread(1.0, 1.1, 1.4) for name in ("product", "rest", "plain")},
        "cpu_s": {name: spread(0.2, 0.3, 0.4) for name in ("product", "rest", "plain")},
        "rest_over_product": spread(1.4, 1.6, 1.7),
        "product_over_plain_s": spread(0.2, 0.31, 0.5),
        "product_over_plain_cpu_s": spread(0.1, 0.2, 0.3),
    }
    found = {"50": run, "200": {**run, "rest_over_product": spread(1.5, 1.9, 2.2)}}
    judged = {name: goal for name, goal in goals({"processes": found}).items() if goal["value"] is not None}
    text = summary(found, judged)
    assert "50 ms: 3 turns, 11 requests in 3 waves, load average 0.5 -> 0.7" in text
    assert "product wall" in text and "min 1.000s  median 1.100s  max 1.400s" in text
    assert "plain CPU" in text and "min 0.200s  median 0.300s  max 0.400s" in text
    # Judged on the medians of the pairs, unrounded: 0.31 s is over 0.3 s, 1.9x under 2x.
    assert "process_vs_rest_50ms: 1.600x against 1.5x: met" in text
    assert "process_over_plain_50ms: 0.310s against 0.3s: NOT met" in text
    assert "process_vs_rest_200ms: 1.900x against 2x: NOT met" in text
