"""The action's step as a maintainer waits for it: cold and warm runners, uv beside pip.

Every figure comes from action.yml itself, replayed by tests.kit.runner against the emulator
(demo world): (a) cold, a runner with no cache (the venv built from PyPI as action.yml builds it,
then one read); (b) warm, the venv restored from the cache, then one read; (c) process start to
the first request beside the import floor of `gql.transport.aiohttp`, in the same venv and the
same run; (d) `--help`, `--version`, `corrections marker` and a configuration error beside a bare
interpreter. Medians of `runs`; the cold jobs of uv and pip alternate, run by run, so that the
ratio is measured side by side even when the load of the shared machine changes.
Needs PyPI (each cold build downloads every wheel again: uv and pip run without their caches).
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.measure import first_request_seconds
from emulator import Server, serve_in_thread
from emulator.worlds import demo_world_path
from tests.kit.runner import FolderCache, Replay, StepRecord, runner_environment

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "ghs_bench-token"  # noqa: S105 - the emulator accepts any token
OPENED = {"action": "opened", "issue": {"number": 61}, "repository": {"default_branch": "main"}}
GOALS = {"cold_s": 6.0, "pip_over_uv": 4.0, "quick_command_s": 0.150, "over_floor_s": 0.100}


def _job(
    server: Server, folder: Path, cache: FolderCache, installer: str
) -> tuple[float, list[StepRecord], dict[str, str]]:
    """One replayed job on a fresh runner folder: wall seconds, the steps, the outputs."""
    temp, workspace = folder / "runner-temp", folder / "workspace"
    temp.mkdir(parents=True)
    workspace.mkdir()
    event = folder / "event.json"
    event.write_text(json.dumps(OPENED), encoding="utf-8")
    environment = runner_environment(
        {
            "GITHUB_REPOSITORY": "octo/demo",
            "GITHUB_EVENT_NAME": "issues",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_API_URL": server.base_url,
            "GITHUB_GRAPHQL_URL": server.url,
            "GITHUB_STEP_SUMMARY": str(folder / "summary.md"),
            "CORRECTION_READER_INSTALLER": installer,
        }
    )
    replay = Replay(ROOT, workspace, temp, environment, cache.stand_ins(), token=TOKEN)
    started = time.perf_counter()
    outputs = replay.run({})
    return time.perf_counter() - started, replay.records, outputs


BUILD = "Build the virtual environment"


def _seconds(records: list[StepRecord], name: str) -> float:
    return sum(record.seconds for record in records if record.name == name and record.ran)


def _built_by(records: list[StepRecord]) -> str:
    """Which installer built the venv, and where uv came from (its pinned wheel, or pip): a
    fallback taken on this machine would otherwise pass for the path being measured."""
    outputs = next((record.outputs for record in records if record.name == BUILD and record.ran), {})
    uv_from = outputs.get("uv-from")
    return outputs.get("installer", "?") + (f" (uv from {uv_from})" if uv_from else "")


def _timed(argv: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one command.

    The CPU time is what a loaded machine does not inflate: on 2 cores shared by many
    processes a short command waits for a core longer than it runs.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    environment = runner_environment({"PYTHONPATH": str(ROOT)})
    subprocess.run(argv, cwd=cwd, env=environment, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _command(figures: dict[str, Any], name: str, runs: int, argv: list[str], cwd: Path) -> None:
    """Median wall and CPU seconds of a command, as `<name>_s` and `<name>_cpu_s`."""
    found = [_timed(argv, cwd) for _ in range(runs)]
    figures[f"{name}_s"] = round(statistics.median(wall for wall, _ in found), 3)
    figures[f"{name}_cpu_s"] = round(statistics.median(cpu for _, cpu in found), 3)


def _first_request(server: Server, python: Path, cwd: Path) -> float:
    """Seconds from spawning a read to its first request reaching the server (answer time taken off)."""
    argv = [str(python), "-m", "corrections", "read", "--repo", "octo/demo", "--api-url", server.url]
    argv += ["--out", str(cwd / "out")]
    environment = runner_environment({"PYTHONPATH": str(ROOT), "GITHUB_TOKEN": TOKEN})
    return first_request_seconds(server, argv, environment, cwd)


@dataclass
class ColdJobs:
    """One installer's cold jobs: their wall and build seconds, who built, the last one's cache and folder."""

    folder: Path
    walls: list[float] = field(default_factory=list)
    builds: list[float] = field(default_factory=list)
    built_by: set[str] = field(default_factory=set)
    cache: FolderCache | None = None


def cold_jobs(server: Server, installers: tuple[str, ...], runs: int, folder: Path) -> dict[str, ColdJobs]:
    """Every installer's cold jobs, interleaved run by run: a load that changes while the bench
    runs (the machine is shared) falls on each installer alike, so the ratio stays side by side."""
    jobs = {installer: ColdJobs(folder / installer) for installer in installers}
    for run in range(runs):
        for installer, found in jobs.items():
            found.cache = FolderCache(found.folder / f"cache-{run}")
            wall, records, _ = _job(server, found.folder / f"cold-{run}", found.cache, installer)
            found.walls.append(wall)
            found.builds.append(_seconds(records, BUILD))
            found.built_by.add(_built_by(records))
    return jobs


def installer_figures(server: Server, installer: str, runs: int, cold: ColdJobs) -> dict[str, Any]:
    """The cold jobs' figures, then warm jobs from the last cold job's cache and the start-up
    figures in its venv, for one installer."""
    assert cold.cache is not None, "no cold job ran"
    folder = cold.folder
    warm, reads, checks = [], [], []
    outputs: dict[str, str] = {}
    for run in range(runs):
        wall, records, outputs = _job(server, folder / f"warm-{run}", cold.cache, installer)
        warm.append(wall)
        reads.append(_seconds(records, "Read the corrections"))
        checks.append(_seconds(records, "Check the restored virtual environment"))
    python = folder / f"cold-{runs - 1}" / "runner-temp" / "correction-reader-venv" / "bin" / "python"
    figures: dict[str, Any] = {
        "built_by": ", ".join(sorted(cold.built_by)),
        "cold_s": round(statistics.median(cold.walls), 3),
        "build_s": round(statistics.median(cold.builds), 3),
        "warm_s": round(statistics.median(warm), 3),
        "read_s": round(statistics.median(reads), 3),
        "check_s": round(statistics.median(checks), 3),  # the restored venv checked before use
        "requests": int(outputs["requests"]),
        "points": int(outputs["points"]),
    }
    runs_quick = max(runs, 5)
    # Each read beside a floor measured right after it: the median of the pairs' differences is
    # what a loaded machine moves least (separate medians drift with the load between them).
    pairs = []
    for _ in range(runs_quick):
        first = _first_request(server, python, folder)
        pairs.append((first, *_timed([str(python), "-c", "import gql.transport.aiohttp"], folder)))
    figures["first_request_s"] = round(statistics.median(first for first, _, _ in pairs), 3)
    figures["import_floor_s"] = round(statistics.median(floor for _, floor, _ in pairs), 3)
    figures["import_floor_cpu_s"] = round(statistics.median(cpu for _, _, cpu in pairs), 3)
    figures["over_floor_s"] = round(statistics.median(first - floor for first, floor, _ in pairs), 3)
    _command(figures, "help", runs_quick, [str(python), "-m", "corrections", "--help"], folder)
    _command(figures, "version", runs_quick, [str(python), "-m", "corrections", "--version"], folder)
    marker = [str(python), "-m", "corrections", "marker", "--labels", "bug", "--duplicate-of", "12"]
    _command(figures, "marker", runs_quick, marker, folder)
    config_error = [
        str(python),
        "-m",
        "corrections",
        "read",
        "--repo",
        "octo/demo",
        "--config",
        "missing.toml",
    ]
    _command(figures, "config_error", runs_quick, config_error, folder)
    _command(figures, "bare_python", runs_quick, [str(python), "-c", "pass"], folder)
    return figures


def step_bench(runs: int, installers: tuple[str, ...] = ("uv", "pip")) -> dict[str, Any]:
    """The figures of each installer, the pip/uv ratio of the cold step, and the goals."""
    out: dict[str, Any] = {"runs": runs}
    with serve_in_thread(demo_world_path()) as server, tempfile.TemporaryDirectory() as folder:
        colds = cold_jobs(server, installers, runs, Path(folder))
        for installer in installers:
            out[installer] = installer_figures(server, installer, runs, colds[installer])
    if "uv" in out and "pip" in out:
        # The cold jobs ran in pairs (one of each installer a run): the median of the pairs'
        # ratios, unrounded, is what the goal judges.
        pairs = zip(colds["pip"].walls, colds["uv"].walls, strict=True)
        out["pip_over_uv_cold"] = statistics.median(pip / uv for pip, uv in pairs)
    if "uv" in out:
        out["goals"] = step_goals(out)
    return out


def step_goals(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Issue 16's goals, each with its figure and whether it is met."""
    uv = out["uv"]

    def goal(value: float, limit: float, met: bool) -> dict[str, Any]:
        return {"value": value, "goal": limit, "met": met}

    goals = {
        "cold_step_s": goal(uv["cold_s"], GOALS["cold_s"], uv["cold_s"] <= GOALS["cold_s"]),
        "help_s": goal(uv["help_s"], GOALS["quick_command_s"], uv["help_s"] < GOALS["quick_command_s"]),
        "version_s": goal(
            uv["version_s"], GOALS["quick_command_s"], uv["version_s"] < GOALS["quick_command_s"]
        ),
        "marker_s": goal(uv["marker_s"], GOALS["quick_command_s"], uv["marker_s"] < GOALS["quick_command_s"]),
        "config_error_s": goal(
            uv["config_error_s"], GOALS["quick_command_s"], uv["config_error_s"] < GOALS["quick_command_s"]
        ),
        "first_request_over_floor_s": goal(
            uv["over_floor_s"], GOALS["over_floor_s"], uv["over_floor_s"] <= GOALS["over_floor_s"]
        ),
        "points": goal(uv["points"], 3, uv["points"] <= 3),
    }
    if "pip_over_uv_cold" in out:
        ratio = out["pip_over_uv_cold"]
        goals["pip_over_uv_cold"] = goal(ratio, GOALS["pip_over_uv"], ratio >= GOALS["pip_over_uv"])
    return goals


def step_markdown(out: dict[str, Any]) -> str:
    """The table docs/performance.md quotes."""
    names = [name for name in ("uv", "pip") if name in out]
    rows = [
        ("venv built by", "built_by"),
        ("cold step: build the venv + one read (s)", "cold_s"),
        ("  of which the venv build (s)", "build_s"),
        ("warm step: venv from the cache + one read (s)", "warm_s"),
        ("  of which the read (s)", "read_s"),
        ("  of which the restored venv's check (s)", "check_s"),
        ("start to first request (s)", "first_request_s"),
        ("import floor of gql.transport.aiohttp (s)", "import_floor_s"),
        ("  its CPU time (s)", "import_floor_cpu_s"),
        ("start to first request over the floor, median of pairs (s)", "over_floor_s"),
        ("corrections --help (s)", "help_s"),
        ("  its CPU time (s)", "help_cpu_s"),
        ("corrections --version (s)", "version_s"),
        ("  its CPU time (s)", "version_cpu_s"),
        ("corrections marker (s)", "marker_s"),
        ("  its CPU time (s)", "marker_cpu_s"),
        ("configuration error (s)", "config_error_s"),
        ("  its CPU time (s)", "config_error_cpu_s"),
        ("bare interpreter (s)", "bare_python_s"),
        ("  its CPU time (s)", "bare_python_cpu_s"),
        ("requests / points of the read", "requests"),
    ]
    lines = [
        "| medians of " + str(out["runs"]) + " runs | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for label, key in rows:
        if key == "requests":
            cells = [f"{out[name]['requests']} / {out[name]['points']}" for name in names]
        elif key == "built_by":
            cells = [str(out[name][key]) for name in names]
        else:
            cells = [f"{out[name][key]:.3f}" for name in names]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    if "pip_over_uv_cold" in out:
        lines.append(f"\npip / uv, cold step, median of the runs' pairs: {out['pip_over_uv_cold']:.3f}x")
    for name, goal in out.get("goals", {}).items():
        lines.append(f"- {name}: {goal['value']} (goal {goal['goal']}): {'met' if goal['met'] else 'MISSED'}")
    return "\n".join(lines)
