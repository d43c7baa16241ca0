"""Markdown tables of a bench run (the form docs/performance.md quotes)."""

from __future__ import annotations

from typing import Any


def _table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _pair_row(label: Any, item: dict[str, Any]) -> list[Any]:
    g, r = item["graphql"], item["rest"]
    return [
        label,
        g["requests"],
        g.get("rest_lookups", 0),
        g.get("waves", "-"),
        g["points"],
        g["nodes"],
        f"{g['bytes'] + g.get('rest_bytes', 0):,}",
        f"{g['wall_s']:.3f}",
        r["requests"],
        r.get("waves", "-"),
        r["nodes"],
        f"{r['bytes']:,}",
        f"{r['wall_s']:.3f}",
        f"{item['ratios']['requests']:.1f}x",
        f"{item['ratios']['wall']:.2f}x",
        "yes" if item["agree"] else "NO",
    ]


PAIR_HEADER = [
    "",
    "GraphQL requests",
    "+ REST look-ups",
    "waves",
    "points",
    "nodes",
    "bytes",
    "wall s",
    "REST calls",
    "waves",
    "objects",
    "bytes",
    "wall s",
    "fewer requests",
    "less wall",
    "agree",
]


def markdown(out: dict[str, Any]) -> str:
    """Every table the run produced."""
    parts = [
        f"## Headline ({out['world']['issues']:,} issues, max_analyzed 30, {out['latency_ms']} ms latency)"
    ]
    parts.append(
        _table(
            PAIR_HEADER,
            [
                _pair_row("realistic world, list refused", out),
                _pair_row("common case, list refused", out["common_case"]),
                *([_pair_row("65,536-character bodies", out["long_bodies"])] if "long_bodies" in out else []),
                *(
                    [_pair_row("realistic world at 200 ms", out["latency_200"])]
                    if "latency_200" in out
                    else []
                ),
                *(
                    [
                        _pair_row("realistic world, list allowed", out["allowed"]["realistic"]),
                        _pair_row("common case, list allowed", out["allowed"]["common_case"]),
                    ]
                    if "allowed" in out
                    else []
                ),
            ],
        )
    )
    parts.append(
        "\"list refused\": GitHub refuses GraphQL's collaborator list, as it answers a workflow's "
        'GITHUB_TOKEN on github.com (permissions through REST); "list allowed": a token that may '
        "list collaborators. GraphQL bytes include its REST look-ups'."
    )
    parts.append(f"GraphQL operations (realistic world): {', '.join(out['graphql']['operations'])}")
    parts.append(
        f"Cold start: {out['cold_start_s'] * 1000:.0f} ms; render_context (demo): {out['render_ms']:.1f} ms"
    )
    if "adaptive" in out:
        adaptive = out["adaptive"]
        parts.append(
            f"## Adaptive case ({adaptive['world']['issues']:,} issues): GitHub times out on the first page"
        )
        rows = []
        for label, key in (
            ("full pages answered", "full_pages"),
            ("first page times out", "first_page_times_out"),
        ):
            item = adaptive[key]
            sizes = item["page_sizes"]
            rows.append(
                [
                    label,
                    item["requests"],
                    item["rest_requests"],
                    item["refused"],
                    item["points"],
                    f"{item['nodes']:,}",
                    f"{item['wall_s']:.3f}",
                    f"{item['refused_s']:.0f}",
                    f"{sizes['issues']} x {sizes['timeline_items']}",
                ]
            )
        header = [
            "",
            "GraphQL requests",
            "REST look-ups",
            "refused",
            "points",
            "nodes",
            "wall s",
            "+ GitHub's refusal s",
            "pages",
        ]
        parts.append(_table(header, rows))
        same = "yes" if adaptive["same_corrections"] else "NO"
        parts.append(f"Same window and corrections with shrunk pages: {same}")
    if "busy_month" in out:
        busy = out["busy_month"]
        world, quality = busy["world"], busy["quality"]
        parts.append(
            f"## Busy month ({world['issues']:,} issues, {world['pull_requests']} pull requests, "
            f"{world['sources']} accepted learnings)"
        )
        parts.append(
            f"corrections read: {busy['read']['requests']} requests, {busy['read']['points']} points, "
            f"{busy['read']['waves']} waves. corrections quality --month 2026-11: counts "
            f"{quality['counted']:,} of {world['first_analyses']:,} first analyses "
            f"({'complete' if quality['complete'] else 'partial: issues active after ' + str(quality['covers_after'])}), "
            f"{quality['requests']} requests, {quality['points']} points, {quality['seconds']} s"
        )
        small = busy.get("quality_small_budget")
        if small is not None:
            parts.append(
                f"With --budget {small['budget']['points']}: counts {small['counted']:,} "
                f"({'complete' if small['complete'] else 'partial: issues active after ' + str(small['covers_after'])}; "
                f"the budget {'ended' if small['budget']['ended'] else 'did not end'} the read), "
                f"{small['requests']} requests, {small['points']} points"
            )
    if "sweep" in out:
        sweep = out["sweep"]
        scan, search = sweep["scan"], sweep["search"]
        parts.append(f"## After a sweep ({sweep['world']['swept']} old issues relabelled last)")
        parts.append(
            _table(
                ["", "requests", "points", "analysed issues found", "note"],
                [
                    [
                        "the reader's scan",
                        scan["requests"],
                        scan["points"],
                        scan["window"],
                        "yes" if scan["note"] else "none",
                    ],
                    [
                        "issue search by commenter",
                        search["requests"],
                        search["points"],
                        search["analysed_in_first_page"],
                        "-",
                    ],
                ],
            )
        )
    parts.append("## Goals")
    parts.append(
        _table(
            ["goal", "figure", "limit", "how", "met"],
            [
                [
                    name,
                    "-" if g["value"] is None else f"{g['value']}{g['unit']}",
                    f"{g['goal']}{g['unit']}",
                    g["how"],
                    {True: "yes", False: "NO", None: "-"}[g["met"]],
                ]
                for name, g in out["goals"].items()
            ],
        )
    )
    if "cases" in out:
        parts.append("## Cases")
        parts.append(_table(PAIR_HEADER, [_pair_row(name, item) for name, item in out["cases"].items()]))
    if "scale" in out:
        parts.append("## Scale (max_analyzed 30)")
        rows = [_pair_row(f"{item['world']['issues']:,} issues", item) for item in out["scale"]]
        parts.append(_table(PAIR_HEADER, rows))
        parts.append(
            _table(
                ["issues", "generate s", "load s"],
                [
                    [f"{i['world']['issues']:,}", i["world"]["generate_s"], i["world"]["load_s"]]
                    for i in out["scale"]
                ],
            )
        )
    if "max_analyzed" in out:
        parts.append("## max_analyzed")
        rows = [
            [*_pair_row(item["max_analyzed"], item), item["runs_per_hour"]] for item in out["max_analyzed"]
        ]
        parts.append(_table([*PAIR_HEADER, "runs per 1,000 points"], rows))
    if "latency" in out:
        parts.append("## Latency (max_analyzed 30)")
        parts.append(
            _table(PAIR_HEADER, [_pair_row(f"{item['latency_ms']} ms", item) for item in out["latency"]])
        )
    return "\n\n".join(parts) + "\n"
