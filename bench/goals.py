"""The goals of issue 7 (for max_analyzed = 30), judged on a headline run's figures."""

from __future__ import annotations

from typing import Any


def _goal(value: float, limit: float, met: bool, unit: str = "") -> dict[str, Any]:
    return {"value": value, "goal": limit, "unit": unit, "met": met}


def goals(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each goal with its figure and whether it is met.

    The common case is a world where every 👎 comes from a maintainer and no window timeline
    runs past 100 items; "any case" is the realistic world (👎 from anyone, long timelines).
    """
    common = out["common_case"]["graphql"]
    typical = out["graphql"]
    points = max(common["points"], typical["points"])
    ratios = out["ratios"]
    return {
        "graphql_requests_common": _goal(common["requests"], 2, common["requests"] <= 2),
        "graphql_requests_any": _goal(typical["requests"], 3, typical["requests"] <= 3),
        "points_per_run": _goal(points, 3, points <= 3),
        "fewer_requests_than_rest": _goal(ratios["requests"], 15, ratios["requests"] >= 15, "x"),
        "less_wall_time_than_rest": _goal(ratios["wall"], 4, ratios["wall"] >= 4, "x"),
        "cold_start": _goal(out["cold_start_s"], 0.4, out["cold_start_s"] < 0.4, "s"),
        "render": _goal(out["render_ms"], 20, out["render_ms"] < 20, "ms"),
        # Issue 16: the render step had regressed from 8-9 ms to 23 ms.
        "render_issue_16": _goal(out["render_ms"], 10, out["render_ms"] <= 10, "ms"),
    }
