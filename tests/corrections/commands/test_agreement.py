"""The context, the quality numbers and `explain` agree, issue by issue, on every world in the repository.

Each world is read as `corrections read` reads it (one run of the job), and each issue of its
window is read again as `corrections explain N` reads it (its own round trips). The explanation's
words are parsed back into outcomes and compared with corrections.json, corrections.md and the
monthly quality numbers. They all come from one trace of the rules (`rules.issue.trace`); this test is
what keeps a second place from deciding again.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from assistant.config import Config, config_from_table
from corrections.quality.explain import explain
from corrections.quality.numbers import quality_report
from corrections.read.options import ReadOptions
from corrections.read.outcome import ReadOutcome
from corrections.read.round_trips import read_corrections
from corrections.read.status import Complete
from corrections.read.trail import read_trail
from corrections.render.files import corrections_json, render_corrections_md
from corrections.render.pointers import OTHERS
from corrections.rules.settings import RuleSettings
from queries.client import GitHubClient
from queries.retry import RetryPolicy
from tests.emulation import Emulators

ROOT = Path(__file__).resolve().parents[3]
WORLDS = sorted(
    path
    for pattern in ("emulator/worlds/*.json", "tests/worlds/*.json", "tests/corrections/commands/*.json")
    for path in ROOT.glob(pattern)
    if not path.name.endswith(".expected.json")
)

LABEL = re.compile(r"^Label `(?P<name>[^`]+)`(?: \(proposed by the first analysis\))?:$")
FIRST = re.compile(r"^First analysis: .* at (?P<month>\d{4}-\d\d)-\d\d \d\d:\d\d, proposed labels")


@dataclass
class Explained:
    """What the words of one explanation say."""

    month: str = ""
    removed: set[str] = field(default_factory=set)
    added: set[str] = field(default_factory=set)
    kept: set[str] = field(default_factory=set)
    duplicate: str | None = None
    objector: str | None = None  # "maintainer" or "other", when objected
    thumbs_down: int = 0
    learned: bool = False
    line: str | None = None  # the corrections.md line explain quotes


def parse(lines: list[str]) -> Explained:
    """Read the outcomes back from explain's words."""
    said = Explained()
    label: str | None = None
    in_thumbs = False
    for number, line in enumerate(lines):
        if first := FIRST.match(line):
            said.month = first.group("month")
        if heading := LABEL.match(line):
            label = heading.group("name")
        elif line.startswith("  => ") and label is not None:
            verdict = line.removeprefix("  => ")
            if verdict.startswith("learned: a maintainer removed"):
                said.removed.add(label)
            elif verdict.startswith("learned: a maintainer added"):
                said.added.add(label)
            elif verdict.startswith("kept"):
                said.kept.add(label)
            label = None
        if line.startswith("Duplicate notice: none"):
            said.duplicate = None
        elif line.startswith("  => learned: the duplicate notice was objected to by "):
            said.duplicate = "objected"
            said.objector = "maintainer" if line.endswith("by a maintainer") else "other"
        elif line.startswith("  => confirmed"):
            said.duplicate = "confirmed"
        elif line.startswith("  => open"):
            said.duplicate = "open"
        if line.startswith("👎 on the first analysis"):
            in_thumbs = True
        elif in_thumbs and line.startswith("  "):
            said.thumbs_down += line.endswith(": counted")
        else:
            in_thumbs = False
        if line.startswith("Result: learned"):
            said.learned = True
            said.line = lines[number + 1].strip()
    return said


def _quiet(_line: str) -> None:
    """Progress lines are not what this test reads."""


def config_of(world: Path) -> Config:
    """The configuration the world's hand count was made with (defaults when it names none)."""
    expected = world.with_name(world.stem + ".expected.json")
    settings = json.loads(expected.read_text(encoding="utf-8")).get("config") if expected.is_file() else None
    return config_from_table(settings or {})


async def read_both(
    url: str, owner: str, name: str, config: Config
) -> tuple[ReadOutcome, dict[int, Explained]]:
    """One run of the reader, then one explain reading per issue of its window."""
    async with GitHubClient(url, "test-token", policy=RetryPolicy()) as client:
        outcome = await read_corrections(client, ReadOptions(owner=owner, name=name, config=config), _quiet)
        numbers = [read.issue.number for read in outcome.window]
        trails = await asyncio.gather(
            *(
                read_trail(
                    client, ReadOptions(owner=owner, name=name, config=config), number, progress=_quiet
                )
                for number in numbers
            )
        )
    explained: dict[int, Explained] = {}
    for number, trail in zip(numbers, trails, strict=True):
        assert trail.issue is not None
        lines = explain(trail.issue, trail.settings, trail.permissions, trail.reactors, trail.facts)
        explained[number] = parse(lines)
    return outcome, explained


POINTER = re.compile(r" \(the reason: see issues/[0-9]+\.md\)")


def shown_in(line: str, markdown: str) -> bool:
    """Explain's line is in corrections.md as it is, or collapsed: a line making the same decision
    names this issue among "the same correction on N issues, also #n "title"" (h31's collapsed lines)."""
    if line in markdown:
        return True
    _title, end = json.JSONDecoder().raw_decode(line, line.index(' "') + 1)
    issue, rest = line[:end], line[end:].removeprefix(" | ")
    # A collapsed line points at the reason of the issue it leads with; the others' are in their files.
    decision = POINTER.sub("", rest.partition(" | ")[2])
    return any(
        POINTER.sub("", words).endswith(f" | {decision}") and issue in others
        for words, found, others in (row.partition(OTHERS) for row in markdown.split("\n"))
        if found
    )


def assert_context_agrees(outcome: ReadOutcome, explained: dict[int, Explained]) -> None:
    context = json.loads(corrections_json(outcome))
    markdown = render_corrections_md(outcome)
    entries = {entry["number"]: entry for entry in context["corrections"]}
    assert set(context["window"]) == set(explained)
    for number, said in explained.items():
        assert (number in entries) == said.learned, number
        if not said.learned:
            continue
        entry = entries[number]
        assert set(entry["labels_removed"]) == said.removed, number
        assert set(entry["labels_added"]) == said.added, number
        assert (entry["duplicate"] or {}).get("outcome") == (
            said.duplicate if said.duplicate == "objected" else None
        )
        assert (entry["duplicate"] or {}).get("by") == said.objector, number
        assert entry["thumbs_down"] == said.thumbs_down, number
        assert said.line is not None and shown_in(said.line, markdown), number


def assert_quality_agrees(outcome: ReadOutcome, explained: dict[int, Explained], config: Config) -> None:
    settings = RuleSettings(
        assistant=config.assistant.identity,
        command_word=config.assistant.command,
        duplicate_label=config.assistant.duplicate_label,
        vocabulary=outcome.vocabulary,
    )
    report = quality_report(outcome, settings, config.context.max_analyzed)
    assert sorted({said.month for said in explained.values()}) == [month.month for month in report.months]
    for month in report.months:
        mine = [said for said in explained.values() if said.month == month.month]
        counted: dict[str, Counter[str]] = {}
        for said in mine:
            for kind, names in (("removed", said.removed), ("added", said.added), ("kept", said.kept)):
                for name in names:
                    counted.setdefault(name, Counter())[kind] += 1
        numbers = {n.label: (n.proposed, n.kept, n.removed, n.added) for n in month.labels}
        words = {
            name: (c["kept"] + c["removed"], c["kept"], c["removed"], c["added"])
            for name, c in counted.items()
        }
        assert numbers == words, month.month
        assert month.analyses == len(mine)
        assert month.corrected == sum(said.learned for said in mine)
        duplicates = Counter(said.duplicate for said in mine)
        assert (month.duplicates_confirmed, month.duplicates_objected, month.duplicates_open) == (
            duplicates["confirmed"],
            duplicates["objected"],
            duplicates["open"],
        )
        assert month.duplicates_objected_by_other == sum(said.objector == "other" for said in mine)
        assert month.thumbs_down == sum(said.thumbs_down for said in mine)


def test_every_world_is_covered() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in WORLDS}
    assert {
        "emulator/worlds/demo.json",
        "tests/corrections/commands/quality_world.json",
        "tests/worlds/labels.json",
    } <= names
    assert len(WORLDS) >= 8


@pytest.mark.parametrize("world", WORLDS, ids=[path.stem for path in WORLDS])
def test_context_quality_and_explain_agree_issue_by_issue(world: Path, emulate: Emulators) -> None:
    repository: Any = json.loads(world.read_text(encoding="utf-8"))["repository"]
    config = config_of(world)
    server = emulate(world)
    outcome, explained = asyncio.run(read_both(server.url, repository["owner"], repository["name"], config))
    assert outcome.status == Complete() and outcome.window, "a world the rules are tested on reads whole"
    assert_context_agrees(outcome, explained)
    assert_quality_agrees(outcome, explained, config)
    if world.stem == "demo":  # the words were read back, not skipped: every kind of outcome is there
        said = explained.values()
        assert all(
            any(getattr(s, kind) for s in said) for kind in ("removed", "added", "kept", "thumbs_down")
        )
        assert {s.duplicate for s in said} >= {"objected", "confirmed", "open", None}
