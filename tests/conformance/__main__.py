"""`python -m tests.conformance record|compare`: the conformance check (docs/emulator.md, "Conformance").

    record  --repo OWNER/NAME [--api-url URL] [--out DIR]
            runs the scenario against GitHub (the token from GITHUB_TOKEN) and writes one
            recording per step into DIR (tests/conformance/recordings/sandbox/)
    compare [--recordings DIR] [--world FILE]
            runs the same scenario against the emulator serving FILE (the sandbox world) and
            compares the shapes with the recordings: each difference on one line, exit 1 if any

Exit status: 0 done and equal, 1 differences (or a step GitHub answered and the emulator did
not), 2 a usage error or a recording that does not read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from emulator import serve_in_thread
from tests.conformance.recorder import Recording, Runner, record, run_process
from tests.conformance.scenario import SANDBOX_WORLD, SCENARIO, Step
from tests.conformance.shapes import compare

RECORDINGS = Path(__file__).resolve().parent / "recordings" / "sandbox"
GITHUB = "https://api.github.com/graphql"


def source(api_url: str) -> dict[str, str]:
    """The `source` of a recording the workflow made (every recording names one)."""
    return {
        "what": "GitHub's answers to the product's own requests (tests/conformance/scenario.py), "
        "recorded by .github/workflows/conformance.yml",
        "repository": "the conformance sandbox (OWNER/REPO)",
        "where": f"{api_url} and its REST root, on the sandbox the workflow's CONFORMANCE_SANDBOX names",
        "licence": "GitHub's answers to our own requests on our own repository",
        "trimmed": "ids, node ids, database ids, cursors, oids, timestamps and logins replaced by "
        "numbered stand-ins, URLs by <url>, the repository by OWNER/REPO; request headers not kept",
    }


def write(recordings: list[Recording], folder: Path, api_url: str = GITHUB) -> list[Path]:
    """One JSON file per step; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for recording in recordings:
        path = folder / f"{recording.step}.json"
        text = json.dumps(recording.as_json(source(api_url)), indent=1, ensure_ascii=False)
        path.write_text(text + "\n", encoding="utf-8")
        written.append(path)
    return written


def read(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Each step's exchanges from a folder of recordings (step name -> exchanges)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            found[str(data["step"])] = list(data["exchanges"])
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(f"conformance: {path}: not a recording ({error})") from None
    return found


def against_emulator(
    world: Path, scratch: Path, steps: tuple[Step, ...] = SCENARIO, run: Runner = run_process
) -> dict[str, list[dict[str, Any]]]:
    """The scenario's exchanges with the emulator serving `world`."""
    recordings = emulator_recordings(world, scratch, steps, run)
    return {recording.step: recording.exchanges for recording in recordings}


def emulator_recordings(
    world: Path, scratch: Path, steps: tuple[Step, ...] = SCENARIO, run: Runner = run_process
) -> list[Recording]:
    """The scenario recorded from the emulator serving `world`, each step with its exit status."""
    with serve_in_thread(world) as server:
        repo = f"{server.store.file.repository.owner}/{server.store.file.repository.name}"
        return record(server.url, repo, "conformance", scratch, steps, progress=_say, run=run)


def differences(
    github: dict[str, list[dict[str, Any]]], emulator: dict[str, list[dict[str, Any]]]
) -> list[str]:
    """Every difference of shape, step by step (a step recorded on one side only is one)."""
    found: list[str] = []
    for step in sorted(set(github) | set(emulator)):
        if step not in emulator or step not in github:
            found.append(f"{step}: recorded on one side only")
            continue
        found.extend(f"{step}: {line}" for line in compare(github[step], emulator[step]))
    return found


def _say(line: str) -> None:
    print(f"conformance: {line}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.conformance", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    recorder = commands.add_parser("record", help="record the scenario's answers from GitHub")
    recorder.add_argument("--repo", required=True, help="the sandbox repository, OWNER/NAME")
    recorder.add_argument("--api-url", default=GITHUB, help=f"GitHub's GraphQL endpoint (default {GITHUB})")
    recorder.add_argument("--out", type=Path, default=RECORDINGS, help="the folder of the recordings")
    comparer = commands.add_parser("compare", help="compare the emulator's answers with the recordings")
    comparer.add_argument("--recordings", type=Path, default=RECORDINGS, help="the folder of the recordings")
    comparer.add_argument("--world", type=Path, default=SANDBOX_WORLD, help="the sandbox world")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="conformance-") as scratch:
        if arguments.command == "record":
            token = os.environ.get("GITHUB_TOKEN") or os.environ.get("GH_TOKEN") or ""
            if not token:
                print("conformance: record: no token (set GITHUB_TOKEN)", file=sys.stderr)
                return 2
            recordings = record(arguments.api_url, arguments.repo, token, Path(scratch), progress=_say)
            for path in write(recordings, arguments.out, arguments.api_url):
                _say(f"wrote {path}")
            return 0
        github = read(arguments.recordings)
        if not github:
            print(f"conformance: compare: no recordings in {arguments.recordings}", file=sys.stderr)
            return 2
        found = differences(github, against_emulator(arguments.world, Path(scratch)))
    for line in found:
        print(line)
    _say(f"{len(found)} difference(s) in {len(github)} step(s)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
