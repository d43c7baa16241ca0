"""A newcomer's first analysis: README's commands only, on a repository the assistant never saw.

The repository (bench/labelled_world.py) has 40 labels with their descriptions and 300 issues its
maintainer labelled by hand, and no analysis of the assistant. The newcomer runs `corrections
init` in a checkout, commits and pushes what it wrote (the emulator is served again with those
files on the default branch: that is the push), and a new issue arrives: the workflow's commands
(`corrections read`, then `corrections prompt --event`) give the model a prompt whose examples are
issues of the new issue's own area. No file is written by hand. `scripts/newcomer` runs the same
from a fresh clone with the CLI installed as README says, and times it.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from syrupy.assertion import SnapshotAssertion

from bench.labelled_world import LabelledSpec, generate
from tests.commandline.conftest import command_line
from tests.emulation import Emulators

NEW_ISSUE = 301
Run = Callable[..., subprocess.CompletedProcess[str]]


def newcomer(
    emulate: Emulators, folder: Path, corrections: list[str]
) -> tuple[str, dict[str, str], list[str]]:
    """The whole path; returns the prompt, the context's files and the steps run, in order."""
    labelled = generate(LabelledSpec())
    steps: list[str] = []
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in {"GITHUB_ACTIONS", "GH_TOKEN"} and not k.startswith("INPUT_")
    }
    environ["GITHUB_TOKEN"] = "newcomer-token"

    def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        steps.append(
            " ".join(argv[len(corrections) - 1 :] if argv[: len(corrections)] == corrections else argv)
        )
        done = subprocess.run(
            argv, cwd=cwd, env=environ, capture_output=True, text=True, check=False, timeout=300
        )
        assert done.returncode == 0, f"{argv}: {done.stdout}{done.stderr}"
        return done

    github = emulate(labelled.world)
    checkout = folder / "newcomer"
    run(["git", "init", "-q", str(checkout)], folder)
    run(
        ["git", "-C", str(checkout), "remote", "add", "origin", "https://github.com/octo/newcomer.git"],
        folder,
    )
    run([*corrections, "init", "--api-url", github.url], checkout)
    run(["git", "add", ".github"], checkout)
    run(
        [
            "git",
            "-c",
            "user.name=N",
            "-c",
            "user.email=n@example.com",
            "commit",
            "-q",
            "-m",
            "Triage assistant",
        ],
        checkout,
    )
    listed = run(["git", "ls-files", ".github"], checkout).stdout.split()
    pushed = {name: (checkout / name).read_text(encoding="utf-8") for name in listed}
    github = emulate({**labelled.world, "files": {"main": pushed}})  # the push
    # A new issue is opened: the first-analysis workflow's commands.
    issue = next(i for i in labelled.world["issues"] if i["number"] == NEW_ISSUE)
    event = folder / "event.json"
    payload = {
        "number": NEW_ISSUE,
        "title": issue["title"],
        "body": issue["body"],
        "user": {"login": issue["author"]},
    }
    event.write_text(json.dumps({"action": "opened", "issue": payload}), encoding="utf-8")
    context = folder / "context"
    run(
        [
            *corrections,
            "read",
            "--repo",
            "octo/newcomer",
            "--api-url",
            github.url,
            "--issue",
            str(NEW_ISSUE),
            "--out",
            str(context),
        ],
        folder,
    )
    prompt = folder / "prompt.md"
    run(
        [
            *corrections,
            "prompt",
            "--context",
            str(context),
            "--issue",
            str(NEW_ISSUE),
            "--event",
            str(event),
            "--out",
            str(prompt),
        ],
        folder,
    )
    files = {path.name: path.read_text(encoding="utf-8") for path in context.iterdir() if path.is_file()}
    return prompt.read_text(encoding="utf-8"), files, steps


def test_a_newcomers_first_analysis_holds_examples_of_its_own_area(
    emulate: Emulators, tmp_path: Path, snapshot: SnapshotAssertion
) -> None:
    started = time.monotonic()
    # scripts/newcomer: the `corrections` installed from a fresh clone as README says.
    installed = os.environ.get("NEWCOMER_CORRECTIONS")
    prompt, files, steps = newcomer(
        emulate, tmp_path, [installed] if installed else command_line("corrections")
    )
    area = f"area-{generate().family[NEW_ISSUE]}"
    assert len(json.loads(files["corrections.json"])["vocabulary"]) == 40  # labels.md from init
    section = prompt.split("## Issues the maintainers labelled themselves", 1)[1].split("\n## ", 1)[0]
    example_lines = [line for line in section.splitlines() if line.startswith("#")]
    assert example_lines and all(f"labelled: {area}" in line for line in example_lines[:3])
    assert prompt.index("## Issues the maintainers labelled themselves") < prompt.index(
        f"## The issue you are analysing: #{NEW_ISSUE}"
    )
    assert files["examples.md"] == snapshot(name="examples.md")
    assert len(steps) == 8
    assert time.monotonic() - started < 120
    print("\n".join(["", *steps, f"{time.monotonic() - started:.1f} s"]))
