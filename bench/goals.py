"""The bench's goals: one table, the same as docs/performance.md's "Goals" (a test keeps them equal).

Each goal says what it limits, its limit, how it is judged (measured by `python -m bench`, by
`python -m bench --step`, or an estimate that the bench cannot measure) and where it comes from.
`goals(out)` judges a headline run's figures; a goal whose figure the run did not measure is
reported with `met: None`, never as met.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Figure = Callable[[dict[str, Any]], float | None]


@dataclass(frozen=True)
class Goal:
    """One line of the table."""

    name: str
    what: str
    limit: float
    unit: str
    at_most: bool  # the figure must stay at or below the limit (else at or above it)
    how: str  # "measured", "measured by --step", or "estimated"
    source: str
    figure: Figure | None = None


def _graphql(key: str, world: str) -> Figure:
    def figure(out: dict[str, Any]) -> float | None:
        found = out if world == "realistic" else out["common_case"]
        value = found["graphql"].get(key)
        return None if value is None else float(value)

    return figure


def _points(out: dict[str, Any]) -> float:
    return float(max(out["graphql"]["points"], out["common_case"]["graphql"]["points"]))


def _ratio(key: str, where: str | None = None) -> Figure:
    def figure(out: dict[str, Any]) -> float | None:
        found = out.get(where) if where else out
        return None if found is None else float(found["ratios"][key])

    return figure


def _busy_month(figure: Callable[[dict[str, Any], dict[str, Any]], float]) -> Figure:
    def found(out: dict[str, Any]) -> float | None:
        busy = out.get("busy_month")
        return None if busy is None else float(figure(busy["quality"], busy["world"]))

    return found


def _short(name: str) -> Figure:
    def figure(out: dict[str, Any]) -> float | None:
        found = out.get("short_commands_s", {}).get(name)
        return None if found is None else float(found)

    return figure


def _processes(latency: str, key: str) -> Figure:
    def figure(out: dict[str, Any]) -> float | None:
        found = out.get("processes", {}).get(latency)
        return None if found is None else float(found[key]["median"])

    return figure


def _cold_over_floor(out: dict[str, Any]) -> float | None:
    found = out.get("cold_over_floor_s")  # paired: each start beside a floor measured right after
    return None if found is None else float(found)


GOALS: tuple[Goal, ...] = (
    Goal(
        "graphql_requests_common",
        "GraphQL requests, common case",
        2,
        "",
        True,
        "measured",
        "issue 3",
        _graphql("requests", "common"),
    ),
    Goal(
        "graphql_requests_any",
        "GraphQL requests, realistic world",
        3,
        "",
        True,
        "measured",
        "issue 3",
        _graphql("requests", "realistic"),
    ),
    Goal(
        "points_per_run",
        "points a run (either world)",
        3,
        "",
        True,
        "measured",
        "issue 3; GitHub's cost formula",
        _points,
    ),
    Goal(
        "waves_common",
        "dependent waves, common case",
        2,
        "",
        True,
        "measured",
        "issue 26: GitHub's floor",
        _graphql("waves", "common"),
    ),
    Goal(
        "waves_realistic",
        "dependent waves, realistic world",
        3,
        "",
        True,
        "measured",
        "issue 26: GitHub's floor",
        _graphql("waves", "realistic"),
    ),
    Goal(
        "fewer_requests_than_rest",
        "REST reader's requests over GraphQL's",
        15,
        "x",
        False,
        "measured",
        "issue 7",
        _ratio("requests"),
    ),
    Goal(
        "wall_vs_rest_50ms",
        "REST reader's wall time over GraphQL's at 50 ms",
        1.5,
        "x",
        False,
        "measured",
        "issue 26",
        _ratio("wall"),
    ),
    Goal(
        "wall_vs_rest_200ms",
        "the same at 200 ms, same run",
        2,
        "x",
        False,
        "measured",
        "issue 26",
        _ratio("wall", "latency_200"),
    ),
    Goal(
        "bytes_vs_rest_long_bodies",
        "REST reader's bytes over GraphQL's, 65,536-character bodies",
        1,
        "x",
        False,
        "measured",
        "issue 26",
        _ratio("bytes", "long_bodies"),
    ),
    Goal(
        "first_request_over_floor",
        "start to first request, beyond the floor of importing gql.transport.aiohttp",
        0.1,
        "s",
        True,
        "measured",
        "issue 16",
        _cold_over_floor,
    ),
    Goal(
        "help",
        "`corrections --help`, a whole process, no network stack",
        0.15,
        "s",
        True,
        "measured",
        "issue 16",
        _short("help"),
    ),
    Goal("version", "`corrections --version`", 0.15, "s", True, "measured", "issue 16", _short("version")),
    Goal("marker", "`corrections marker`", 0.15, "s", True, "measured", "issue 16", _short("marker")),
    Goal(
        "config_error",
        "a configuration error (a missing file), no network stack",
        0.15,
        "s",
        True,
        "measured",
        "issue 16",
        _short("config_error"),
    ),
    Goal(
        "render",
        "render_context on the demo world",
        20,
        "ms",
        True,
        "measured",
        "issue 7",
        lambda out: out["render_ms"],
    ),
    Goal(
        "render_issue_16",
        "the same, after issue 16's regression",
        10,
        "ms",
        True,
        "measured",
        "issue 16",
        lambda out: out["render_ms"],
    ),
    Goal(
        "busy_month_counted",
        "busy month: share of November's first analyses `quality --month` counts",
        1,
        "x",
        False,
        "measured",
        "issue 26",
        _busy_month(lambda quality, world: quality["counted"] / world["first_analyses"]),
    ),
    Goal(
        "busy_month_points",
        "busy month: points of `quality --month` (its default budget)",
        100,
        "",
        True,
        "measured",
        "issue 26",
        _busy_month(lambda quality, _world: quality["points"]),
    ),
    Goal(
        "process_vs_rest_50ms",
        "REST reader's whole process over `corrections read`'s, at 50 ms (median of paired turns)",
        1.5,
        "x",
        False,
        "measured by --processes",
        "issue 37",
        _processes("50", "rest_over_product"),
    ),
    Goal(
        "process_vs_rest_200ms",
        "the same at 200 ms",
        2,
        "x",
        False,
        "measured by --processes",
        "issue 37",
        _processes("200", "rest_over_product"),
    ),
    Goal(
        "process_over_plain_50ms",
        "`corrections read`'s whole process beyond the same requests sent by a plain client, at 50 ms",
        0.3,
        "s",
        True,
        "measured by --processes",
        "issue 37",
        _processes("50", "product_over_plain_s"),
    ),
    Goal(
        "quality_cpu_growth",
        "`quality --month` CPU at 4,000 analyses over its CPU at 800 (5x the analyses)",
        7,
        "x",
        True,
        "measured by --quality-scale",
        "issue 37",
        lambda out: None if "quality_scale" not in out else float(out["quality_scale"]["cpu_ratio"]),
    ),
    Goal(
        "cold_step",
        "the action's step, venv build and read, cold",
        6,
        "s",
        True,
        "measured by --step",
        "issue 16",
    ),
    Goal(
        "cold_step_vs_pip", "the same with pip over with uv", 4, "x", False, "measured by --step", "issue 16"
    ),
    Goal(
        "first_page_on_github",
        "GitHub's time for the 10,100-node first page",
        10,
        "s",
        True,
        "estimated",
        "GitHub's 10 s query limit; public reports: liatrio/liatrio-otel-collector#71, raycast/extensions#10278",
    ),
)


def _figure(goal: Goal, out: dict[str, Any]) -> float | None:
    """The goal's figure in this run; None when the run did not measure what it is made of
    (a run of one mode, `--processes` or `--quality-scale`, holds only that mode's figures)."""
    if goal.figure is None:
        return None
    try:
        return goal.figure(out)
    except KeyError:
        return None


def _met(goal: Goal, value: float | None) -> bool | None:
    if value is None:
        return None
    return value <= goal.limit if goal.at_most else value >= goal.limit


def goals(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each goal with its figure (None when this run does not measure it) and whether it is met."""
    found: dict[str, dict[str, Any]] = {}
    for goal in GOALS:
        value = _figure(goal, out)
        found[goal.name] = {
            "value": value,
            "goal": goal.limit,
            "unit": goal.unit,
            "met": _met(goal, value),
            "how": goal.how,
        }
    return found
