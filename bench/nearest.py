"""`python -m bench.nearest`: where the nearest earlier correction lands, with and without the ranking.

    python -m bench.nearest [--json] [--issues N] [--seed N] [--wording-seeds N,N,...] [--embedding]

For each corrected issue of the window taken as "the new issue", the lines it would get are the
corrections of the issues opened before it. Its nearest earlier correction is one about the same
subject, decided without BM25: in the demo world by hand (DEMO_TOPICS, from reading the issues),
in a generated world by the topic family it was generated from (bench/topic_world.py). The
figure is the rank of the first such line, newest first (the order without an analysed issue)
and nearest first (`corrections.render.nearest`, the order with one). Both worlds are read by the real
reader from the emulator; only the ranking is run once per new issue, in process.

Then the wording study (bench/wording_study.py): new issues worded as people write (paraphrases,
short titles, German, Spanish, French, stack traces, Chinese, Japanese) against a 12-week history
(bench/wording_world.py), recall@1/3/5 and MRR per wording for each ranker of bench/rankers.py.
`--embedding` adds WordLlama where that package is installed (it is not a dependency).

This ranks the lines in process; bench/prompt_reach.py measures the same new issues end to end,
through the action's read and `corrections prompt` (the prompt the model is given).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from assistant.config import Config, ContextConfig
from bench import wording_study
from bench.topic_world import TopicSpec, generate
from bench.wording_world import WordingSpec
from bench.wording_world import generate as wording_world
from corrections.read.options import ReadOptions
from corrections.read.outcome import ReadOutcome
from corrections.read.round_trips import read_corrections
from corrections.render.nearest import issue_text, nearest_first
from emulator import serve_in_thread
from emulator.worlds import demo_world_path
from queries.client import GitHubClient

TOKEN = "study-token"  # noqa: S105 - the emulator accepts any token

# The demo's corrected issues by subject (the window's and the horizon's past it: #6, #9), read by
# hand from their titles and bodies. Issues alone in their subject (#49 Object Lock, #30 SSO login,
# #29 watch segfault, #6 unchanged files uploaded again, #9 MinIO etag crash) have no nearest.
DEMO_TOPICS: dict[int, str] = {
    41: "windows paths",
    44: "windows paths",
    51: "windows paths",
    21: "large uploads",
    37: "large uploads",
    54: "large uploads",
    11: "which files are synced",
    23: "which files are synced",
    25: "which files are synced",
    48: "which files are synced",
    49: "object lock",
    30: "sso login",
    29: "watch segfault",
    6: "unchanged files uploaded again",
    9: "minio etag",
}


@dataclass(frozen=True)
class Query:
    """One corrected issue taken as the new issue: where its first same-subject line lands."""

    number: int
    lines: int  # corrections of issues opened before it
    newest_first: int  # 1-based rank of the first same-subject line, newest first
    nearest_first: int  # the same with the ranking


def read_world(world: Any, max_analyzed: int) -> ReadOutcome:
    """The real reader's outcome on `world` served by the emulator (no issue being analysed)."""
    config = Config(context=ContextConfig(max_analyzed=max_analyzed))

    async def run(url: str, owner: str, name: str) -> ReadOutcome:
        async with GitHubClient(url, TOKEN) as client:
            return await read_corrections(client, ReadOptions(owner, name, config), lambda _: None)

    with serve_in_thread(world) as server:
        repository = server.store.file.repository
        return asyncio.run(run(server.url, repository.owner, repository.name))


def queries(outcome: ReadOutcome, topic: Mapping[int, str]) -> list[Query]:
    """Every corrected issue with an earlier correction on its subject, and the two ranks."""
    texts = {read.issue.number: issue_text(read.issue.title, read.issue.body) for read in outcome.read_issues}
    newest = outcome.corrected  # the order without an analysed issue
    found: list[Query] = []
    for new in newest:
        subject = topic.get(new.number)
        lines = [c for c in newest if c.number < new.number]
        if subject is None or not any(topic.get(c.number) == subject for c in lines):
            continue
        ranked = nearest_first(lines, texts, texts[new.number])
        found.append(
            Query(
                number=new.number,
                lines=len(lines),
                newest_first=_first_rank(lines, topic, subject),
                nearest_first=_first_rank(ranked, topic, subject),
            )
        )
    return found


def _first_rank(lines: Sequence[Any], topic: Mapping[int, str], subject: str) -> int:
    return next(place for place, line in enumerate(lines, 1) if topic.get(line.number) == subject)


def summary(found: Sequence[Query]) -> dict[str, Any]:
    """Median and mean rank, and the share of new issues whose nearest line is in the top 1/3/5."""

    def figures(ranks: list[int]) -> dict[str, Any]:
        return {
            "median_rank": statistics.median(ranks),
            "mean_rank": round(statistics.fmean(ranks), 1),
            **{f"top_{k}": round(sum(rank <= k for rank in ranks) / len(ranks), 2) for k in (1, 3, 5)},
        }

    if not found:
        return {"queries": 0}
    return {
        "queries": len(found),
        "mean_lines": round(statistics.fmean(q.lines for q in found), 1),
        "newest_first": figures([q.newest_first for q in found]),
        "nearest_first": figures([q.nearest_first for q in found]),
    }


def study(issues: int = TopicSpec.issues, seed: int = TopicSpec.seed) -> dict[str, Any]:
    """Both worlds: the demo (30 analyses, hand-read subjects) and a generated one (100 analyses)."""
    demo = queries(read_world(demo_world_path(), 30), DEMO_TOPICS)
    generated = generate(TopicSpec(issues=issues, seed=seed))
    topics = queries(read_world(generated.world, 100), generated.family)
    return {
        "demo": {"summary": summary(demo), "queries": [q.__dict__ for q in demo]},
        "generated": {
            "spec": {"issues": issues, "seed": seed, "families": TopicSpec.families},
            "summary": summary(topics),
        },
    }


def wording(seeds: Sequence[int] = (WordingSpec.seed,), embedding: bool = False) -> dict[str, Any]:
    """The wording study on the worlds of `seeds`, each read by the real reader at both window sizes."""
    worlds = []
    for seed in seeds:
        spec = WordingSpec(seed=seed)
        world = wording_world(spec).world
        worlds.append((spec, {name: read_world(world, size) for name, size in wording_study.WINDOWS.items()}))
    return wording_study.study(worlds, embedding)


def _table(name: str, figures: Mapping[str, Any]) -> list[str]:
    if not figures.get("queries"):
        return [f"{name}: no corrected issue has an earlier one on its subject"]
    lines = [f"{name}: {figures['queries']} new issues, {figures['mean_lines']} lines each on average"]
    for order in ("newest_first", "nearest_first"):
        f = figures[order]
        lines.append(
            f"  {order.replace('_', ' '):13} median rank {f['median_rank']:>4}  mean {f['mean_rank']:>5}  "
            f"top 1 {f['top_1']:.0%}  top 3 {f['top_3']:.0%}  top 5 {f['top_5']:.0%}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print the study (a table, or JSON with --json)."""
    parser = argparse.ArgumentParser(prog="python -m bench.nearest", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--issues", type=int, default=TopicSpec.issues, help="issues of the generated world")
    parser.add_argument("--seed", type=int, default=TopicSpec.seed, help="seed of the generated world")
    parser.add_argument(
        "--wording-seeds",
        type=lambda text: [int(seed) for seed in text.split(",")],
        default=[WordingSpec.seed],
        help="seeds of the wording worlds, comma-separated (default: %(default)s)",
    )
    parser.add_argument("--embedding", action="store_true", help="add WordLlama where it is installed")
    args = parser.parse_args(argv)
    result = study(args.issues, args.seed)
    result["wording"] = wording(args.wording_seeds, args.embedding)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print("\n".join(_table("demo world", result["demo"]["summary"])))
    for query in result["demo"]["queries"]:
        print(
            f"  #{query['number']}: {query['lines']} lines, newest first {query['newest_first']}, "
            f"nearest first {query['nearest_first']}"
        )
    print("\n".join(_table("generated world", result["generated"]["summary"])))
    print("\n".join(wording_study.table(result["wording"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
