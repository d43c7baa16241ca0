"""The busy month's generator: the traffic it promises, valid for the emulator, deterministic."""

from __future__ import annotations

from collections import Counter

from bench.busy_month import BusyMonthSpec, busy_month
from emulator.world import parse_world
from learnings.rules.proposals import parse_proposal


def test_the_busy_month_has_the_measured_traffic() -> None:
    month = busy_month()
    world = month.world
    assert len(world["issues"]) == 2_976
    assert len(world["pull_requests"]) == 620
    assert Counter(source.kind for source in month.sources) == {"remember": 206, "proposal": 141}
    assert month.first_analyses("2026-11") == 2_535
    parse_world(world)  # the emulator accepts it


def test_each_source_is_in_the_world_as_accepted() -> None:
    month = busy_month(BusyMonthSpec(issues=300, pull_requests=60, remember=20, proposals=15, ignored=6))
    comments = {
        item["id"]: (item, thread)
        for thread in month.world["issues"] + month.world["pull_requests"]
        for item in thread["timeline"]
        if item["type"] == "comment"
    }
    pushers = {
        login
        for login, level in month.world["permissions"].items()
        if level in {"ADMIN", "MAINTAIN", "WRITE"}
    }
    for source in month.sources:
        item, thread = comments[source.comment]
        assert thread["number"] == source.number
        if source.kind == "remember":
            assert item["author"] in pushers
            assert f"/assistant remember {source.text}" in item["body"]
        else:
            proposal = parse_proposal(item["body"])
            assert proposal is not None and proposal.text == source.text
            (reaction,) = item["reactions"]
            assert reaction["user"] in pushers and reaction["content"] == "THUMBS_UP"
            assert reaction["at"] > item["at"]
    times = [item["at"] for thread in month.world["issues"] for item in thread["timeline"]]
    assert len(times) == len(set(times))


def test_the_same_spec_gives_the_same_month() -> None:
    spec = BusyMonthSpec(issues=200, pull_requests=40, remember=10, proposals=10, ignored=4)
    assert busy_month(spec) == busy_month(spec)
