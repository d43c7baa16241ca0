"""`python -m bench`: the GraphQL reader against a REST reader of the same rules, on the emulator.

    python -m bench [--quick] [--json] [--latency-ms 50] [--runs N] [--issues N] [--seed N]
    python -m bench --step [--runs N] [--json]
    python -m bench --parsers [--runs N] [--json]
    python -m bench --loop [--json]         # the loop end to end: example, stand-in models, maintainer
    python -m bench --loop-horizon [--json] # recurrences not given before and after the horizon
    python -m bench --proposals [--json]    # the sync's recurring-decision threshold, measured
    python -m bench --prompt-reach [--json] # the lesson in the model's prompt, end to end (long)
    python -m bench --backtest [--json]     # corrections backtest of 100 analyses, 1,000-issue world
    python -m bench --processes [--runs N] [--json]      # whole processes, paired, at 50 and 200 ms
    python -m bench --quality-scale [--runs N] [--json]  # quality --month at 800 and 4,000 analyses
    python -m bench --quick --write-docs    # (or --processes, --quality-scale) the figures into docs/performance.md

`--quick` runs the comparison on a 1,000-issue world, cold start, render time and the adaptive
case (the first page timing out on GitHub's 10 s limit) (about a minute);
without it, also the cases, the scale series (1,000 to 100,000 issues), the `max_analyzed`
series and a latency series (a few minutes). Exit 1 when the readers disagree on any world.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from bench.adaptive import adaptive_case
from bench.busy_case import busy_case
from bench.goals import goals
from bench.measure import (
    Pair,
    cold_over_floor,
    cold_start,
    compare,
    config_for,
    import_floor,
    render_ms,
    short_commands,
)
from bench.sweep import sweep_case
from bench.worlds import WorldSpec, generate
from emulator import Server, serve_in_thread
from emulator.store import Store
from emulator.world import parse_world

POINTS_PER_HOUR = 1_000  # GITHUB_TOKEN's GraphQL budget per repository


# How GitHub answers the readers' permission look-ups (docs/emulator.md): a workflow token's
# GITHUB_TOKEN is refused GraphQL's collaborator list on github.com (the emulator's default);
# a token with push access may list collaborators.
PATHS = {"refused": "forbidden", "allowed": "allowed"}
LONG_BODY = 65_536  # characters of every issue's body in the bytes case (GitHub's limit for a body)


@contextmanager
def served(
    spec: WorldSpec, latency_ms: int, path: str = "refused"
) -> Iterator[tuple[Server, dict[str, float]]]:
    """The world of `spec` on the emulator, with the seconds its generation and loading took.

    `path`: "refused" (GraphQL's collaborator list refused, as for a workflow token) or "allowed".
    """
    started = time.perf_counter()
    world = {**generate(spec), "collaborators_via_graphql": PATHS[path]}
    generated = time.perf_counter()
    store = Store(parse_world(world))
    loaded = time.perf_counter()
    with serve_in_thread(store, latency_ms=latency_ms) as server:
        yield server, {"generate_s": round(generated - started, 2), "load_s": round(loaded - generated, 2)}


def figures(pair: Pair) -> dict[str, Any]:
    """The JSON figures of one comparison."""
    g, r = pair.graphql, pair.rest
    return {
        "graphql": {
            "requests": g.requests,
            "points": g.points,
            "nodes": g.nodes,
            "bytes": g.bytes,
            "wall_s": round(g.wall_s, 3),
            "operations": list(g.operations),
            "rest_lookups": g.rest_lookups,
            "rest_bytes": g.rest_bytes,
            "waves": g.waves,
        },
        "rest": {
            "requests": r.requests,
            "calls": r.requests,
            "nodes": r.nodes,
            "bytes": r.bytes,
            "wall_s": round(r.wall_s, 3),
            "waves": r.waves,
        },
        "ratios": pair.ratios,
        "window": len(g.window),
        "corrected": sum(c.is_corrected for c in g.corrections),
        "agree": not pair.differences,
        "differences": list(pair.differences[:10]),
    }


def run_pair(
    spec: WorldSpec, latency_ms: int, runs: int, max_analyzed: int = 30, path: str = "refused"
) -> dict[str, Any]:
    """Both readers on one world."""
    with served(spec, latency_ms, path) as (server, load):
        pair = compare(server, config_for(max_analyzed), runs)
    return {**figures(pair), "world": {"issues": spec.issues, **load}, "path": path}


def common_case(spec: WorldSpec) -> WorldSpec:
    """The world where every 👎 comes from people round 2 asks about anyway, no long timeline."""
    return replace(spec, outsider_thumbs_down=False, long_in_window=False)


def headline(spec: WorldSpec, latency_ms: int, runs: int) -> dict[str, Any]:
    """The comparison at max_analyzed 30 on both permission paths, the common case, cold start
    and render time."""
    with served(spec, latency_ms) as (server, load):
        pair = compare(server, config_for(30), runs)
        started = cold_start(server)
        over_floor = cold_over_floor(server)
    out = {**figures(pair), "world": {"issues": spec.issues, **load}, "latency_ms": latency_ms}
    out["path"] = "refused"
    out["common_case"] = run_pair(common_case(spec), latency_ms, runs)
    out["long_bodies"] = run_pair(replace(spec, body_chars=LONG_BODY), latency_ms, runs)
    out["allowed"] = {
        "realistic": run_pair(spec, latency_ms, runs, path="allowed"),
        "common_case": run_pair(common_case(spec), latency_ms, runs, path="allowed"),
    }
    out["latency_200"] = run_pair(spec, 200, runs)
    out["cold_start_s"] = round(started, 3)
    out["import_floor_s"] = round(import_floor(), 3)
    out["cold_over_floor_s"] = over_floor  # the median of paired differences, unrounded
    out["short_commands_s"] = short_commands()
    out["busy_month"] = busy_case()
    out["sweep"] = sweep_case(spec)
    out["adaptive"] = adaptive_case(spec, config_for(30))
    out["render_ms"] = round(render_ms(), 2)
    out["goals"] = goals(out)
    return out


def full(spec: WorldSpec, latency_ms: int, runs: int, out: dict[str, Any]) -> None:
    """The cases and the series."""
    out["cases"] = {
        "long timeline in window": run_pair(replace(spec, long_in_window=True), latency_ms, runs),
        "no long timeline in window": run_pair(replace(spec, long_in_window=False), latency_ms, runs),
    }
    out["scale"] = [run_pair(replace(spec, issues=n), latency_ms, runs) for n in (1_000, 10_000, 100_000)]
    series = []
    with served(spec, latency_ms) as (server, _):
        for max_analyzed in (10, 20, 30, 50, 75, 100):
            found = figures(compare(server, config_for(max_analyzed), runs))
            found["max_analyzed"] = max_analyzed
            found["runs_per_hour"] = POINTS_PER_HOUR // max(1, found["graphql"]["points"])
            series.append(found)
    out["max_analyzed"] = series
    out["latency"] = []
    for latency in (0, 50, 200):
        found = run_pair(spec, latency, max(3, runs // 2))
        found["latency_ms"] = latency
        out["latency"].append(found)


def all_agree(out: dict[str, Any]) -> bool:
    """Whether the readers agreed on every world of the run."""
    found = [out, out["common_case"], *out.get("cases", {}).values(), *out.get("scale", [])]
    found += list(out.get("allowed", {}).values())
    found += [out[key] for key in ("long_bodies", "latency_200") if key in out]
    found += out.get("max_analyzed", []) + out.get("latency", [])
    adaptive = out.get("adaptive", {}).get("same_corrections", True)
    return adaptive and all(item["agree"] for item in found)


def _loop_table(found: dict[str, Any]) -> list[str]:
    """One rate's weeks: per stand-in, corrections, recurrences given / not given, precision."""
    models = list(found["summary"])
    lines = [
        "| week | " + " | ".join(f"{m}: corrections, given / not given, precision" for m in models) + " |",
        "|---:|" + "---|" * len(models),
    ]
    for week in found["weeks"]:
        cells = []
        for model in models:
            w = week[model]
            precision = "-" if w["precision"] is None else f"{w['precision']:.0%}"
            cells.append(
                f"{w['corrections']}, {w['recurrences_given']} / {w['recurrences_not_given']}, {precision}"
            )
        lines.append(f"| {week['week']} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| stand-in | per 100 analyses: corrections | recurrences given | not given | precision "
        "| objected duplicate notices | left out by the second look |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for model, total in found["summary"].items():
        precision = "-" if total["precision"] is None else f"{total['precision']:.0%}"
        lines.append(
            f"| {model} | {total['corrections_per_100']} | {total['recurrences_given_per_100']} | "
            f"{total['recurrences_not_given_per_100']} | {precision} | {total['objected_duplicates']} | "
            f"{total['second_look']} |"
        )
    return lines


def _loop(as_json: bool, seed: int) -> int:
    """`--loop`: the four stand-ins graded at the quiet and the busy rate (bench/loop_graded.py),
    then the live loop through the example workflow (bench/loop.py); exit 1 when a goal is missed."""
    from bench import loop, loop_graded

    rates = {
        rate: loop_graded.figures(loop_graded.run_all(loop_graded.WEEKS, per_week, seed))
        for rate, per_week in loop_graded.RATES.items()
    }
    # The same arrivals again, the answers through `corrections answer`'s second look.
    looked = {
        rate: loop_graded.figures(
            loop_graded.run_all(loop_graded.WEEKS, per_week, seed, loop_graded.LOOKED, second_look=True)
        )
        for rate, per_week in loop_graded.RATES.items()
    }
    met = {
        f"{rate}: {goal}": ok
        for rate, found in rates.items()
        for goal, ok in (
            loop_graded.goals(found) | loop_graded.second_look_goals(found, looked[rate])
        ).items()
    }
    live = loop.figures(loop.run_both(weeks=2, per_week=6, seed=seed))
    met.update(loop.goals(live))
    if as_json:
        quiet = rates["quiet"]
        print(
            json.dumps(
                {
                    "weeks": quiet["weeks"],
                    "summary": quiet["summary"],
                    "rates": rates,
                    "second_look": looked,
                    "live": live,
                    "goals": met,
                }
            )
        )
    else:
        for rate, found in rates.items():
            per_week = loop_graded.RATES[rate]
            print(
                f"## {rate}: {per_week} issues a week, {loop_graded.WEEKS} weeks, window {loop_graded.WINDOW}\n"
            )
            print("\n".join(_loop_table(found)) + "\n")
            print(f"With the second look ({rate}):\n")
            print("\n".join(_loop_table(looked[rate])) + "\n")
        print(f"Live, through the example workflow: {live['weeks']}\n")
        for goal, ok in met.items():
            print(f"- {goal}: {'met' if ok else 'MISSED'}")
    return 0 if all(met.values()) else 1


def _write_docs(wanted: bool, mode: str, out: dict[str, Any]) -> None:
    """`--write-docs`: the run's block in docs/performance.md (bench/docs_block.py)."""
    if wanted:
        from bench import docs_block

        docs_block.write(mode, out)
        print(f"bench: wrote the {mode} figures into {docs_block.PAGE}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; print JSON (`--json`) or Markdown tables."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="only the headline comparison (under a minute)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument(
        "--latency-ms", type=int, default=50, help="latency the emulator adds to each request"
    )
    parser.add_argument(
        "--runs", type=int, help="runs per reader (median wall time); default 3 quick, 5 full"
    )
    parser.add_argument(
        "--issues", type=int, help="issues of the headline world (default 1,000 quick, 10,000 full)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--step",
        action="store_true",
        help="only the action's step, cold and warm, uv beside pip (bench/step.py; needs PyPI)",
    )
    parser.add_argument(
        "--parsers",
        action="store_true",
        help="only the parsers of untrusted text on their worst inputs (bench/parsers.py)",
    )
    parser.add_argument(
        "--loop",
        action="store_true",
        help="the four stand-ins graded over 16 weeks at two rates, then the live loop (bench/loop_graded.py, bench/loop.py; a few minutes)",
    )
    parser.add_argument(
        "--prompt-reach",
        action="store_true",
        help="the lesson in the prompt the model is given, end to end (bench/prompt_reach.py; long)",
    )
    parser.add_argument(
        "--loop-horizon",
        action="store_true",
        help="recurrences not given before and after the horizon, 16 weeks (bench/loop_horizon.py)",
    )
    parser.add_argument(
        "--proposals",
        action="store_true",
        help="the sync's recurring-decision threshold at 1 to 5 issues (bench/proposals_threshold.py)",
    )
    parser.add_argument(
        "--backtest", action="store_true", help="what corrections backtest costs (bench/backtest_bench.py)"
    )
    parser.add_argument(
        "--processes",
        action="store_true",
        help="`corrections read`, the REST reader and a plain client as whole processes, paired (bench/processes.py)",
    )
    parser.add_argument(
        "--quality-scale",
        action="store_true",
        help="`corrections quality --month` as a process at 800 and 4,000 analyses (bench/quality_scale.py)",
    )
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="write this run's goals and figures into docs/performance.md's block of the mode "
        "(--quick, --processes or --quality-scale; bench/docs_block.py)",
    )
    args = parser.parse_args(argv)
    if args.write_docs and not (args.quick or args.processes or args.quality_scale):
        parser.error("--write-docs: the page keeps the blocks of --quick, --processes and --quality-scale")
    runs = args.runs or (3 if args.quick else 5)
    if args.parsers:
        from bench.parsers import parser_bench, parser_markdown

        timed = parser_bench(args.runs or 3)
        print(json.dumps(timed) if args.json else parser_markdown(timed))
        return 0 if all(row["met"] for row in timed["worst"]) else 1
    if args.loop:
        return _loop(args.json, args.seed)
    if args.prompt_reach:
        from bench import prompt_reach

        return prompt_reach.main(["--json"] if args.json else [])
    if args.loop_horizon:
        from bench import loop_horizon

        return loop_horizon.run(args.json, args.seed)
    if args.proposals:
        from bench import proposals_threshold

        return proposals_threshold.run(args.json, args.seed)
    if args.backtest:
        from bench.backtest_bench import backtest_bench

        found = {"outsiders": backtest_bench(), "common_case": backtest_bench(outsiders=False)}
        print(json.dumps(found) if args.json else json.dumps(found, indent=2))
        return 0
    if args.processes:
        from bench.processes import processes, summary

        timed = {"processes": processes(args.runs or 7)}
        judged = {name: found for name, found in goals(timed).items() if found["value"] is not None}
        _write_docs(args.write_docs, "processes", {**timed, "goals": judged})
        print(json.dumps({**timed, "goals": judged}) if args.json else summary(timed["processes"], judged))
        return 0 if all(found["met"] for found in judged.values()) else 1
    if args.quality_scale:
        from bench.quality_scale import quality_scale

        scaled = {"quality_scale": quality_scale(args.runs or 1)}
        judged = {name: found for name, found in goals(scaled).items() if found["value"] is not None}
        _write_docs(args.write_docs, "quality_scale", {**scaled, "goals": judged})
        print(json.dumps({**scaled, "goals": judged}, indent=None if args.json else 2))
        return 0 if all(found["met"] for found in judged.values()) else 1
    if args.step:
        from bench.step import step_bench, step_markdown

        found = step_bench(args.runs or 3)
        print(json.dumps(found) if args.json else step_markdown(found))
        return 0
    spec = WorldSpec(issues=args.issues or (1_000 if args.quick else 10_000), seed=args.seed)
    out = headline(spec, args.latency_ms, runs)
    if not args.quick:
        full(spec, args.latency_ms, runs, out)
    agree = all_agree(out)
    _write_docs(args.write_docs, "quick", out)
    if args.json:
        print(json.dumps(out))
    else:
        from bench.report import markdown

        print(markdown(out))
    if not agree:
        print(
            "bench: the GraphQL and REST readers disagree, or shrunk pages read other corrections "
            "(see differences, adaptive)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
