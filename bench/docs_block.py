"""`python -m bench ... --write-docs`: the run's figures written into docs/performance.md by the bench.

Each mode (`--quick`, `--processes`, `--quality-scale`) owns one block of the page between two
markers; `--write-docs` replaces that block with the run's goals (each measured goal's figure,
unrounded as the goals judge it, and whether it is met), the run's headline figures, when it ran
and the machine's load then. The figures are kept in the block as JSON too, so
tests/bench/test_docs_block.py can render the block again from them and find it unchanged: the
block is what the bench wrote, in the format it writes today, never edited by hand.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PAGE = Path(__file__).resolve().parent.parent / "docs" / "performance.md"

# The headline figures of each mode: (label, path in the run's JSON).
FIELDS: dict[str, tuple[tuple[str, tuple[str | int, ...]], ...]] = {
    "quick": (
        ("GraphQL requests, realistic world", ("graphql", "requests")),
        ("REST look-ups", ("graphql", "rest_lookups")),
        ("waves", ("graphql", "waves")),
        ("points", ("graphql", "points")),
        ("bytes", ("graphql", "bytes")),
        ("wall s at 50 ms", ("graphql", "wall_s")),
        ("REST reader: calls", ("rest", "calls")),
        ("REST reader: wall s at 50 ms", ("rest", "wall_s")),
        ("bytes, 65,536-character bodies", ("long_bodies", "graphql", "bytes")),
        ("REST reader's bytes, 65,536-character bodies", ("long_bodies", "rest", "bytes")),
        ("busy month's read: waves", ("busy_month", "read", "waves")),
        ("cold start s (spawn to first request)", ("cold_start_s",)),
        ("render ms", ("render_ms",)),
    ),
    "processes": tuple(
        (f"{label} at {latency} ms, median", ("processes", latency, *path))
        for latency in ("50", "200")
        for label, path in (
            ("`corrections read` wall s", ("wall_s", "product", "median")),
            ("REST reader wall s", ("wall_s", "rest", "median")),
            ("plain client wall s", ("wall_s", "plain", "median")),
            ("`corrections read` CPU s", ("cpu_s", "product", "median")),
            ("REST reader CPU s", ("cpu_s", "rest", "median")),
            ("plain client CPU s", ("cpu_s", "plain", "median")),
            ("REST over product", ("rest_over_product", "median")),
            ("product less plain s", ("product_over_plain_s", "median")),
            ("product less plain, CPU s", ("product_over_plain_cpu_s", "median")),
        )
    ),
    "quality_scale": (
        ("first analyses, smaller month", ("quality_scale", "small", "first_analyses")),
        ("CPU s, smaller month", ("quality_scale", "small", "cpu_median_s")),
        ("first analyses, larger month", ("quality_scale", "large", "first_analyses")),
        ("CPU s, larger month", ("quality_scale", "large", "cpu_median_s")),
    ),
}
COMMANDS = {
    "quick": "python -m bench --quick --write-docs",
    "processes": "python -m bench --processes --write-docs",
    "quality_scale": "python -m bench --quality-scale --write-docs",
}


def _start(mode: str) -> str:
    return f"<!-- bench:{mode} (written by `{COMMANDS[mode]}`; edits are lost) -->"


def _end(mode: str) -> str:
    return f"<!-- /bench:{mode} -->"


def _at(out: dict[str, Any], path: Sequence[str | int]) -> Any:
    found: Any = out
    for key in path:
        try:
            found = found[key]
        except (KeyError, IndexError, TypeError):
            return None
    return found


def figures(mode: str, out: dict[str, Any], *, when: datetime | None = None) -> dict[str, Any]:
    """What the block of `mode` shows of a run's JSON output (`out`, with its `goals`)."""
    moment = when or datetime.now(UTC)
    return {
        "mode": mode,
        "at": moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load": round(os.getloadavg()[0], 1),
        "cpus": os.cpu_count() or 1,
        "fields": {label: _at(out, path) for label, path in FIELDS[mode]},
        "goals": {
            name: {"value": goal["value"], "limit": goal["goal"], "unit": goal["unit"], "met": goal["met"]}
            for name, goal in out.get("goals", {}).items()
            if goal["value"] is not None
        },
    }


def _shown(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.6g}" if abs(value) < 1e6 else f"{value:,.0f}"
    return str(value)


def render(found: dict[str, Any]) -> str:
    """The block, markers included, of the figures `figures` gave."""
    mode = found["mode"]
    lines = [
        _start(mode),
        f"`{COMMANDS[mode]}`, {found['at']}, load {found['load']} on {found['cpus']} CPUs:",
        "",
    ]
    if found["fields"]:
        lines += ["| figure | this run |", "|---|---:|"]
        lines += [f"| {label} | {_shown(value)} |" for label, value in found["fields"].items()]
        lines.append("")
    lines += ["| goal | limit | figure | met |", "|---|---:|---:|---|"]
    for name, goal in found["goals"].items():
        unit = f" {goal['unit']}" if goal["unit"] else ""
        lines.append(
            f"| `{name}` | {_shown(goal['limit'])}{unit} | {_shown(goal['value'])} | {_shown(goal['met'])} |"
        )
    lines += ["", f"<!-- figures {json.dumps(found)} -->", _end(mode)]
    return "\n".join(lines)


def blocks(page: str) -> dict[str, str]:
    """Each mode's block on the page, markers included."""
    found = {}
    for mode in FIELDS:
        match = re.search(re.escape(_start(mode)) + r".*?" + re.escape(_end(mode)), page, re.DOTALL)
        if match:
            found[mode] = match.group(0)
    return found


def stored_figures(block: str) -> dict[str, Any]:
    """The figures a block was rendered from."""
    match = re.search(r"^<!-- figures (\{.*\}) -->$", block, re.MULTILINE)
    if match is None:
        raise ValueError("the block keeps no figures")
    stored: dict[str, Any] = json.loads(match.group(1))
    return stored


def write(mode: str, out: dict[str, Any], page: Path = PAGE) -> None:
    """Replace the block of `mode` on the page (or add it at the end) with this run's figures."""
    text = page.read_text(encoding="utf-8")
    new = render(figures(mode, out))
    old = blocks(text).get(mode)
    text = text.replace(old, new) if old is not None else text.rstrip("\n") + "\n\n" + new + "\n"
    page.write_text(text, encoding="utf-8")
