"""Benchmark: rank 10,000 learnings against 1,000 changed paths (goal: under 100 ms).

A script, not a test: `python bench/learnings_rank.py [--learnings N] [--paths N] [--runs N]`.
The store is generated with a fixed seed from a tree of 60 folders x 25 subfolders: 30% general
learnings, then exact files, `dir/sub/**`, `dir/**`, `dir/sub/*.ext`, `**/*.ext` and `**`.
Prints the time to load the store from JSONL text (which parses and checks every glob), the first
ranking after that load (as in a run of `corrections read`: automata built on first
use), the median and best of further runs, and a ranking in a fresh state where no glob has been
parsed yet. The full garbage collection that the load makes due is run and timed on its own: left
to happen by itself, it lands in whatever allocates next (here the first ranking) and adds its
50-60 ms there.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from learnings.rules.globs import parse_glob
from learnings.rules.model import Learning
from learnings.rules.rank import rank
from learnings.store.jsonl import parse_jsonl, to_jsonl

EXTENSIONS = ["py", "ts", "md", "go", "rs", "json"]


def tree(rng: random.Random) -> list[str]:
    """Files of a made-up repository."""
    return [
        f"d{top}/s{sub}/f{index}.{rng.choice(EXTENSIONS)}"
        for top in range(60)
        for sub in range(25)
        for index in range(rng.randint(1, 8))
    ]


def glob_for(rng: random.Random, files: list[str]) -> str:
    """One glob of the mix described in the module's docstring."""
    roll = rng.random()
    file = rng.choice(files)
    top, sub, _name = file.split("/")
    if roll < 0.3:
        return file if rng.random() < 0.7 else f"{top}/{sub}/missing{rng.randint(0, 99)}.py"
    if roll < 0.65:
        return f"{top}/{sub}/**"
    if roll < 0.8:
        return f"{top}/**"
    if roll < 0.95:
        return f"{top}/{sub}/*.{rng.choice(EXTENSIONS)}"
    return rng.choice(["**", *(f"**/*.{ext}" for ext in EXTENSIONS), "**/f1.py"])


def store(rng: random.Random, files: list[str], count: int) -> list[Learning]:
    """Generated learnings; 10% retired."""
    learnings = []
    for number in range(count):
        general = rng.random() < 0.3
        paths = () if general else tuple({glob_for(rng, files) for _ in range(rng.randint(1, 3))})
        day = rng.randint(1, 28)
        learnings.append(
            Learning.model_validate(
                {
                    "v": 1,
                    "id": f"l_{number:06x}",
                    "scope": "path" if paths else "repo",
                    "kind": "note",
                    "text": f"learning number {number}",
                    "paths": paths,
                    "createdAt": f"2026-01-{day:02d}T00:00:00Z",
                    "updatedAt": f"2026-02-{day:02d}T{rng.randint(0, 23):02d}:00:00Z",
                    "status": "retired" if rng.random() < 0.1 else "active",
                },
                strict=False,
            )
        )
    return learnings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learnings", type=int, default=10_000)
    parser.add_argument("--paths", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    rng = random.Random(20261129)  # noqa: S311 - a reproducible store, not a secret
    files = tree(rng)
    text = to_jsonl(store(rng, files, args.learnings))
    changed = rng.sample(files, args.paths)

    parse_glob.cache_clear()
    start = time.perf_counter()
    learnings = list(parse_jsonl(text, source="bench").learnings)
    load = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    gc.collect()
    collect = (time.perf_counter() - start) * 1000
    times = []
    ranked: list[Learning] = []
    for _ in range(args.runs):
        start = time.perf_counter()
        ranked = rank(learnings, changed)
        times.append((time.perf_counter() - start) * 1000)
    parse_glob.cache_clear()
    start = time.perf_counter()
    rank(learnings, changed)
    cold = (time.perf_counter() - start) * 1000

    globs = len({glob for learning in learnings for glob in learning.paths})
    print(f"{len(learnings)} learnings ({globs} distinct globs) against {len(changed)} changed paths")
    print(f"{len(ranked)} apply")
    print(f"load from JSONL (globs parsed):      {load:7.1f} ms")
    print(f"full garbage collection after load:  {collect:7.1f} ms (else it falls in the first ranking)")
    print(f"rank, first after load:              {times[0]:7.1f} ms")
    print(f"rank, median of {len(times) - 1} more runs:        {statistics.median(times[1:]):7.1f} ms")
    print(f"rank, best run:                      {min(times):7.1f} ms")
    print(f"rank, no glob parsed before (cold):  {cold:7.1f} ms")


if __name__ == "__main__":
    main()
