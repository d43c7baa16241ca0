"""`python -m bench.prompt_reach`: does the lesson reach the prompt the model is given?

    python -m bench.prompt_reach [--json] [--seeds 31,32,33] [--limit N]
    python -m bench --prompt-reach [--json]

The end-to-end measurement of the ranking study (bench/nearest.py ranks lines in process; this
runs the product). For every new issue of bench/wording_texts.py (paraphrases, short titles,
German, Spanish, French, stack traces, Chinese, Japanese) and every world of `--seeds`
(bench/wording_world.py: 12 weeks, seven recurring kinds of mistake, the two quiet ones older
than the 30 most recent analyses), the issue is opened in the world, a day after its history,
and the example workflow's two product steps run on the emulator with the default
configuration: the action's read (`corrections action`, as the `issues: opened` event starts it,
max-analyzed "30" as the example sets it) and `corrections prompt --context --issue --event`,
the prompt the model is given, at its default budget.

The figures, read from what the product wrote, never from its insides:

- **reach**: a correction line of the prompt stands for an issue of the new issue's kind (the
  kind is the world's, decided when it was generated, never by a ranking). The lines are read
  from the prompt's corrections fence; which issues a line stands for (a collapsed line stands
  for several) from corrections.json's `lines`, checked against the line's lead number;
- **top 3**: such a line is among the first three correction lines;
- **tokens**: the whole prompt counted by the product's tokenizer (o200k_base);
- **points**: the GraphQL points of the read, as the emulator charged them (GitHub's formula).

GOALS are issue 31's: reach for at least 95 % of new issues, top 3 for at least 85 %, every
prompt within 4,500 tokens and every read within 3 points.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import statistics
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.wording_texts import WORDINGS
from bench.wording_world import START, WEEKS, NewIssue, WordingSpec, generate, new_issues
from tests.kit.world import iso, placed_issue

TOKEN = "reach-token"  # noqa: S105 - the emulator accepts any token (it acts as the world's viewer)
SEEDS = (31, 32, 33)
REACH, TOP_3, MAX_TOKENS, MAX_POINTS = 0.95, 0.85, 4_500, 3
HEADING = "## Corrections from maintainers"


class ReachError(RuntimeError):
    """What the product wrote does not read as the study expects (a changed prompt's form)."""


@dataclass(frozen=True)
class Reach:
    """One new issue through the product: where the first line of its kind is, and the costs."""

    seed: int
    kind: str
    wording: str
    lines: int  # correction lines in the prompt
    rank: int | None  # 1-based place of the first line of its kind; None: not in the prompt
    tokens: int
    points: int
    excerpts: int  # issue excerpts the prompt shows


def with_new_issue(world: Mapping[str, Any], new: NewIssue) -> tuple[dict[str, Any], int]:
    """The world with `new` opened a day after the history's 12 weeks, unanalysed; its number."""
    found = copy.deepcopy(dict(world))
    number = max(issue["number"] for issue in found["issues"]) + 1
    opened = START + timedelta(weeks=WEEKS, days=1)
    found["issues"].append(placed_issue(number, new.title, "newcomer", iso(opened), new.body, []))
    return found, number


def correction_lines(prompt: str) -> list[str]:
    """The correction lines of the prompt: the lines of the first fence after its heading."""
    _, heading, rest = prompt.partition(HEADING + "\n")
    if not heading:
        return []
    lines = rest.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("```")), None)
    if start is None:
        raise ReachError("the corrections section has no fence")
    fence = lines[start].strip()
    end = next(i for i in range(start + 1, len(lines)) if lines[i].strip() == fence)
    return [line for line in lines[start + 1 : end] if line.startswith("#")]


def first_of_kind(
    prompt: str, shown: Sequence[Sequence[int]], kind_of: Mapping[int, str | None], kind: str
) -> tuple[int, int | None]:
    """How many correction lines the prompt has, and the place of the first of `kind`."""
    lines = correction_lines(prompt)
    if len(lines) != len(shown):
        raise ReachError(f"the prompt has {len(lines)} correction lines, corrections.json {len(shown)}")
    for line, issues in zip(lines, shown, strict=True):
        if not line.startswith(f"#{issues[0]} "):
            raise ReachError(f"the prompt's line {line[:40]!r} does not lead with #{issues[0]}")
    rank = next(
        (place for place, issues in enumerate(shown, 1) if any(kind_of.get(n) == kind for n in issues)),
        None,
    )
    return len(lines), rank


def run_product(
    world: Mapping[str, Any], number: int, new: NewIssue, folder: Path
) -> tuple[str, dict[str, Any], int]:
    """The example's read step and prompt step for issue `number`: the prompt, corrections.json
    and the read's GraphQL points."""
    from corrections.commands.action_step import run_action
    from corrections.commands.cli import main as corrections
    from emulator import serve_in_thread

    repository = f"{world['repository']['owner']}/{world['repository']['name']}"
    event = {
        "action": "opened",
        "issue": {"number": number, "title": new.title, "body": new.body, "user": {"login": "newcomer"}},
        "repository": {"full_name": repository, "default_branch": "main"},
    }
    folder.mkdir(parents=True, exist_ok=True)
    event_path = folder / "event.json"
    event_path.write_text(json.dumps(event), encoding="utf-8")
    said = io.StringIO()
    with serve_in_thread(world) as server, contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        environ = {
            "GITHUB_REPOSITORY": repository,
            "GITHUB_EVENT_NAME": "issues",
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_GRAPHQL_URL": server.url,
            "GITHUB_OUTPUT": str(folder / "output"),
            "GITHUB_STEP_SUMMARY": str(folder / "summary.md"),
            "RUNNER_TEMP": str(folder),
            "INPUT_TOKEN": TOKEN,
            "INPUT_MAX_ANALYZED": "30",  # as examples/first-analysis.yml sets it
        }
        status = run_action(environ)
        points = sum(int(e["cost"] or 0) for e in server.log() if e["endpoint"] == "graphql")
    context = folder / "corrections-context"
    prompt_path = folder / "prompt.md"
    arguments = ["prompt", "--context", str(context), "--issue", str(number), "--event", str(event_path)]
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        status = status or corrections([*arguments, "--out", str(prompt_path)])
    if status != 0:
        raise ReachError(
            f"#{number}: the product's steps ended with status {status}: {said.getvalue()[-500:]}"
        )
    shown = json.loads((context / "corrections.json").read_text(encoding="utf-8"))
    return prompt_path.read_text(encoding="utf-8"), shown, points


def measure(seed: int, asked: Sequence[NewIssue], folder: Path, say: Any = None) -> list[Reach]:
    """Every new issue of `asked` through the product on the world of `seed`."""
    from corrections.render.tokens import count_tokens

    generated = generate(WordingSpec(seed=seed))
    found: list[Reach] = []
    for index, new in enumerate(asked):
        world, number = with_new_issue(generated.world, new)
        prompt, shown, points = run_product(world, number, new, folder / f"{seed}-{index}")
        lines, rank = first_of_kind(prompt, shown["lines"], generated.kind, new.kind)
        found.append(
            Reach(
                seed=seed,
                kind=new.kind,
                wording=new.wording,
                lines=lines,
                rank=rank,
                tokens=count_tokens(prompt),
                points=points,
                excerpts=prompt.count("\n### Issue #"),
            )
        )
        if say is not None and (index + 1) % 20 == 0:
            say(f"seed {seed}: {index + 1} of {len(asked)} new issues")
    return found


def figures(found: Sequence[Reach]) -> dict[str, Any]:
    """Reach, top 3, the prompt's tokens and the read's points over some new issues."""
    return {
        "n": len(found),
        "reach": round(sum(r.rank is not None for r in found) / len(found), 3),
        "top_3": round(sum(r.rank is not None and r.rank <= 3 for r in found) / len(found), 3),
        "mean_lines": round(statistics.fmean(r.lines for r in found), 1),
        "max_tokens": max(r.tokens for r in found),
        "mean_tokens": round(statistics.fmean(r.tokens for r in found)),
        "max_points": max(r.points for r in found),
        "mean_excerpts": round(statistics.fmean(r.excerpts for r in found), 1),
    }


def summary(found: Sequence[Reach]) -> dict[str, Any]:
    """The figures over all, per wording and per kind, and the misses."""
    table: dict[str, Any] = {"all": figures(found)}
    for wording in WORDINGS:
        table[wording] = figures([r for r in found if r.wording == wording])
    for kind in sorted({r.kind for r in found}):
        table[f"kind:{kind}"] = figures([r for r in found if r.kind == kind])
    table["outside_top_3"] = [asdict(r) for r in found if r.rank is None or r.rank > 3]
    return table


def goals(every: Mapping[str, Any]) -> dict[str, bool]:
    """Issue 31's goals on the figures over all new issues."""
    return {
        f"the teaching line reaches the prompt for >= {REACH:.0%}": every["reach"] >= REACH,
        f"it is among the first 3 correction lines for >= {TOP_3:.0%}": every["top_3"] >= TOP_3,
        f"every prompt within {MAX_TOKENS:,} tokens": every["max_tokens"] <= MAX_TOKENS,
        f"every read within {MAX_POINTS} points": every["max_points"] <= MAX_POINTS,
    }


def _place(new: NewIssue, asked: Sequence[NewIssue]) -> int:
    same = [n for n in asked if (n.kind, n.wording) == (new.kind, new.wording)]
    return same.index(new)


def study(seeds: Sequence[int] = SEEDS, limit: int | None = None, say: Any = None) -> dict[str, Any]:
    """The measurement on the worlds of `seeds` (`limit`: the first new issues of each wording only)."""
    asked = new_issues()
    if limit is not None:  # the first `limit` of each kind and wording
        asked = [n for n in asked if _place(n, asked) < limit]
    with tempfile.TemporaryDirectory(prefix="prompt-reach-") as folder:
        found = [r for seed in seeds for r in measure(seed, asked, Path(folder), say)]
    result = {"seeds": list(seeds), "new_issues": len(found), **summary(found)}
    result["goals"] = goals(result["all"])
    return result


def table(result: Mapping[str, Any]) -> list[str]:
    """One row per wording and kind, then the goals."""
    seeds = ", ".join(str(seed) for seed in result["seeds"])
    lines = [
        f"prompt reach (seeds {seeds}): {result['new_issues']} new issues through the action's read and "
        "`corrections prompt`, default configuration",
        f"  {'':14}{'n':>5}{'reach':>8}{'top 3':>8}{'lines':>7}{'tokens max':>12}{'mean':>7}{'points':>8}{'excerpts':>10}",
    ]
    for name in ["all", *WORDINGS, *(key for key in result if key.startswith("kind:"))]:
        f = result[name]
        lines.append(
            f"  {name:14}{f['n']:>5}{f['reach']:>8.1%}{f['top_3']:>8.1%}{f['mean_lines']:>7}"
            f"{f['max_tokens']:>12,}{f['mean_tokens']:>7,}{f['max_points']:>8}{f['mean_excerpts']:>10}"
        )
    lines.extend(f"  {'met' if ok else 'MISSED'}: {goal}" for goal, ok in result["goals"].items())
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print the measurement (a table, or JSON with --json); exit 1 when a goal is missed."""
    parser = argparse.ArgumentParser(prog="python -m bench.prompt_reach", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--seeds",
        type=lambda text: [int(seed) for seed in text.split(",")],
        default=list(SEEDS),
        help="seeds of the wording worlds, comma-separated (default: %(default)s)",
    )
    parser.add_argument("--limit", type=int, help="only the first N new issues of each kind and wording")
    args = parser.parse_args(argv)
    result = study(args.seeds, args.limit, say=lambda line: print(line, file=sys.stderr, flush=True))
    print(json.dumps(result, indent=2) if args.json else "\n".join(table(result)))
    return 0 if all(result["goals"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
