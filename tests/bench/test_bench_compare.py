"""The benchmark's comparison on small generated worlds: both readers agree, GraphQL stays bounded.

Counts only, never times (speed is the benchmark's job).
"""

from __future__ import annotations

import pytest

from bench.adaptive import adaptive_case
from bench.measure import compare, config_for
from bench.worlds import WorldSpec, generate
from emulator import Server
from tests.emulation import Emulators


@pytest.fixture(scope="module")
def common_server(emulate_module: Emulators) -> Server:
    """A 1,000-issue world; no window timeline runs past 100 items, 👎 only from maintainers."""
    spec = WorldSpec(issues=1_000, seed=11, long_in_window=False, outsider_thumbs_down=False)
    return emulate_module(generate(spec))


def test_generation_is_deterministic() -> None:
    spec = WorldSpec(issues=300, seed=3)
    assert generate(spec) == generate(spec)
    assert generate(spec) != generate(WorldSpec(issues=300, seed=4))


def test_world_has_the_mix() -> None:
    world = generate(WorldSpec(issues=1_000, seed=11))
    issues = world["issues"]
    analyzed = [
        i for i in issues if any("assistant:analysis" in (t.get("body") or "") for t in i["timeline"])
    ]
    assert len(analyzed) < len(issues) / 2
    assert any(len(i["timeline"]) > 100 for i in issues)
    reactions = [len(t.get("reactions", ())) for i in issues for t in i["timeline"]]
    assert max(reactions) > 100
    assert ".github/assistant/labels.md" in world["files"]["main"]


@pytest.mark.parametrize("max_analyzed", [10, 30])
def test_readers_agree_and_graphql_is_bounded(common_server: Server, max_analyzed: int) -> None:
    pair = compare(common_server, config_for(max_analyzed), runs=1)
    assert pair.differences == ()
    assert len(pair.graphql.window) == max_analyzed
    assert any(c.is_corrected for c in pair.graphql.corrections)
    assert pair.graphql.requests <= 3
    assert pair.graphql.points <= 3
    if max_analyzed == 30:
        assert pair.rest.requests >= 15 * pair.graphql.requests


def test_readers_agree_on_the_realistic_world(emulate: Emulators) -> None:
    """👎 from anyone and a long timeline in the window: a third round at most, same corrections."""
    server = emulate(generate(WorldSpec(issues=1_000, seed=5)))
    pair = compare(server, config_for(30), runs=1)
    assert pair.differences == ()
    assert pair.graphql.requests <= 3
    outcomes = {c.duplicate.outcome.value for c in pair.graphql.corrections if c.duplicate is not None}
    assert outcomes


def test_adaptive_case_reads_the_same_with_half_pages() -> None:
    """The first page refused (GitHub's 10 s, modelled): one refusal, half pages, same corrections."""
    found = adaptive_case(WorldSpec(issues=300, seed=5), config_for(30))
    full, shrunk = found["full_pages"], found["first_page_times_out"]
    assert found["same_corrections"]
    assert (full["refused"], shrunk["refused"]) == (0, 1)
    assert full["page_sizes"] == {"issues": 100, "timeline_items": 100}
    assert shrunk["page_sizes"] == {"issues": 50, "timeline_items": 50}
    assert not shrunk["failed"] and shrunk["note"] is None
    # The refused query costs a request and its points too.
    assert shrunk["requests"] > full["requests"] and shrunk["points"] > full["points"]
    # GraphQL round trips are counted apart from REST look-ups, which halving does not change.
    assert full["requests"] <= 3 and shrunk["rest_requests"] == full["rest_requests"]
