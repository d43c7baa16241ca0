"""A repository the assistant has never analysed: 40 labels with their descriptions, and issues a
maintainer labelled by hand, in the topic families of bench/topic_world.py, so which earlier
issues are relevant to a new one is known (the same family: the same `area-*` label).

The held-out issues come last, unlabelled and without any analysis: what a first analysis of each
is given (examples.md) is measured by bench/kept_examples_study.py and tests/corrections/commands/
test_kept_examples_e2e.py, never by the ranking under study.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.topic_world import COMMON, FAMILIES
from tests.kit.world import iso, labeled, place, placed_issue, world

MAINTAINER = "mara"
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
KINDS = {
    "bug": "Something does not work as documented",
    "crash": "The program dies: a traceback, a signal or an abort",
    "enhancement": "A new feature or a change of behaviour",
    "question": "A usage question, not a defect",
    "documentation": "The manual, the README or the help text",
    "performance": "Slow, or uses too much memory",
    "regression": "Worked in an earlier release",
    "security": "A vulnerability or a hardening",
    "needs-info": "Waiting for the reporter",
    "good first issue": "Small and well described",
    "help wanted": "Maintainers would welcome a pull request",
    "wontfix": "Will not be changed",
    "duplicate": "Reported before",
    "possible-duplicate": "The assistant's duplicate notice",
    "breaking-change": "Changes how existing set-ups behave",
    "dependencies": "A library the program uses",
    "ci": "The project's own build and tests",
    "packaging": "Installers, wheels, distributions",
    "platform-linux": "Only on Linux",
    "platform-macos": "Only on macOS",
    "platform-windows": "Only on Windows",
    "triage": "Not looked at yet",
    "blocked": "Waits on something else",
    "discussion": "Needs a decision first",
    "ux": "How the command line reads and behaves",
    "tests": "Missing or wrong tests",
    "refactor": "Inside the code, no change of behaviour",
    "release": "Preparing a release",
}
AREA_DESCRIPTIONS = {
    "tls": "Certificates, TLS handshakes and verification",
    "proxy": "HTTP proxies, tunnels and corporate networks",
    "windows": "Windows paths, drives and shells",
    "memory": "Memory use, leaks and out-of-memory",
    "watch": "Watching folders for changes",
    "auth": "Tokens, logins and credentials",
    "multipart": "Multipart uploads, resuming and checksums",
    "docs": "The documentation's pages",
    "settings": "The configuration file and its keys",
    "symlink": "Symbolic links and hard links",
    "progress": "Progress bars and terminal output",
    "delete": "Deleting and pruning remote files",
}


def labels() -> list[dict[str, str]]:
    """The repository's 40 labels, each with its description."""
    found = [{"name": f"area-{name}", "description": text} for name, text in AREA_DESCRIPTIONS.items()]
    found += [{"name": name, "description": text} for name, text in KINDS.items()]
    assert len(found) == 40
    return found


@dataclass(frozen=True)
class LabelledSpec:
    """What to generate."""

    labelled: int = 300
    held_out: int = 40
    seed: int = 7


@dataclass(frozen=True)
class LabelledWorld:
    """The world, the family of every issue, and the held-out issues' numbers."""

    world: dict[str, Any]
    family: dict[int, str]
    held_out: tuple[int, ...]


def _text(rng: random.Random, family: str) -> tuple[str, str]:
    own = FAMILIES[family]
    title = [*rng.sample(own, 2), *rng.sample(COMMON, 3)]
    rng.shuffle(title)
    body = [*rng.sample(own, 3), *(rng.choice(COMMON) for _ in range(20))]
    rng.shuffle(body)
    return " ".join(title).capitalize(), " ".join(body).capitalize() + "."


def generate(spec: LabelledSpec = LabelledSpec()) -> LabelledWorld:
    """Issues one every six hours: the labelled ones given their area and a kind by the maintainer
    within the hour, then the held-out ones, untouched."""
    rng = random.Random(spec.seed)  # noqa: S311 - seeded study data, no secret
    families = sorted(FAMILIES)
    kinds = ["bug", "enhancement", "question", "crash", "performance"]
    family: dict[int, str] = {}
    issues: list[dict[str, Any]] = []
    for number in range(1, spec.labelled + spec.held_out + 1):
        name = rng.choice(families)
        family[number] = name
        title, body = _text(rng, name)
        created = START + timedelta(hours=6 * number)
        timeline: list[dict[str, Any]] = []
        if number <= spec.labelled:
            timeline = [
                place(labeled(MAINTAINER, f"area-{name}"), iso(created + timedelta(minutes=30))),
                place(labeled(MAINTAINER, rng.choice(kinds)), iso(created + timedelta(minutes=31))),
            ]
        issues.append(placed_issue(number, title, f"reporter{number % 53}", iso(created), body, timeline))
    found = world(
        "octo",
        "newcomer",
        users={"github-actions": "Bot"},
        permissions={MAINTAINER: "ADMIN"},
        files={"main": {}},
        issues=issues,
        labels=labels(),
    )
    held_out = tuple(range(spec.labelled + 1, spec.labelled + spec.held_out + 1))
    return LabelledWorld(world=found, family=family, held_out=held_out)
