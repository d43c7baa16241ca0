"""`corrections read --as-of TIME`: the context a first analysis at TIME would have had, from one read
of today's timelines, against worlds whose history is known.

The witness: the same world cut at TIME (every issue, item, edit and reaction from TIME on left
out) read as it is. Both must give the same context, file for file, whatever happened since.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from corrections.commands.cli import main
from corrections.quality.as_of import issue_as_of, reactions_as_of
from corrections.rules.models import Actor, Closed, Comment, Issue, LabelChange, Reaction, Reopened
from tests.emulation import DEMO, Emulators, world_dict


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def world_cut_at(world: dict[str, Any], moment: datetime) -> dict[str, Any]:
    """The world as it stood just before `moment`: later issues, items, edits and reactions gone."""
    cut: dict[str, Any] = json.loads(json.dumps(world))
    issues = []
    for issue in cut["issues"]:
        if _at(issue["created_at"]) >= moment:
            continue
        timeline = []
        for item in issue["timeline"]:
            if _at(item["at"]) >= moment:
                continue
            if "updated_at" in item and _at(item["updated_at"]) >= moment:
                del item["updated_at"]
            if "reactions" in item:
                item["reactions"] = [r for r in item["reactions"] if _at(r["at"]) < moment]
            timeline.append(item)
        issue["timeline"] = timeline
        issues.append(issue)
    cut["issues"] = issues
    store = ".github/assistant/learnings.jsonl"
    for files in cut.get("files", {}).values():
        if store in files:
            files[store] = _learnings_cut_at(files[store], moment)
    return cut


def _learnings_cut_at(text: str, moment: datetime) -> str:
    """The learnings file as it stood: no line created from `moment` on; one retired since, active."""
    lines = []
    for line in text.splitlines():
        try:
            learning = json.loads(line)
        except ValueError:
            lines.append(line)
            continue
        if not isinstance(learning, dict) or "createdAt" not in learning:
            lines.append(line)
            continue
        if _at(learning["createdAt"]) >= moment:
            continue
        if learning.get("status") == "retired" and _at(learning["updatedAt"]) >= moment:
            learning["status"] = "active"
        lines.append(json.dumps(learning))
    return "".join(line + "\n" for line in lines)


def _read(url: str, out: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> dict[str, str]:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    argv = ["read", "--repo", "octo/demo", "--api-url", url, "--out", str(out), *extra]
    assert main(argv) == 0
    found = {path.name: path.read_text(encoding="utf-8") for path in sorted(out.glob("*.md"))}
    document = json.loads((out / "corrections.json").read_text(encoding="utf-8"))
    for key in ("cost", "as_of"):
        document.pop(key, None)
    found["corrections.json"] = json.dumps(document, indent=1)
    found.update(
        {f"issues/{p.name}": p.read_text(encoding="utf-8") for p in sorted((out / "issues").glob("*.md"))}
    )
    return found


@pytest.mark.parametrize(
    "moment",
    ["2026-10-20T00:00:00Z", "2026-11-08T14:53:40Z", "2026-11-20T12:00:00Z"],
    ids=["october", "an event's own moment", "late november"],
)
def test_the_context_as_of_a_moment_is_the_read_of_the_world_as_it_stood(
    moment: str, emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = world_dict(DEMO)
    today = emulate(world)
    then = emulate(world_cut_at(world, _at(moment)))
    as_of = _read(today.url, tmp_path / "as-of", monkeypatch, "--as-of", moment, "--max-analyzed", "10")
    witness = _read(then.url, tmp_path / "then", monkeypatch, "--max-analyzed", "10")
    assert as_of.keys() == witness.keys()
    for name, text in witness.items():
        assert as_of[name] == text, name
    written = json.loads((tmp_path / "as-of" / "corrections.json").read_text(encoding="utf-8"))
    assert written["as_of"] == moment
    # Something did change since: the test compares two different reads.
    now = _read(today.url, tmp_path / "now", monkeypatch, "--max-analyzed", "10")
    assert now["corrections.json"] != witness["corrections.json"]


def test_a_time_that_is_not_iso_8601_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    assert main(["read", "--repo", "octo/demo", "--as-of", "last tuesday"]) == 2
    assert "--as-of: expected an ISO 8601 date or time" in capsys.readouterr().err


PIET = Actor(login="piet")
BOT = Actor(login="triage-assistant", typename="Bot")


def _issue(events: tuple[Any, ...]) -> Issue:
    return Issue(
        number=4,
        title="t",
        created_at=_at("2026-10-01T00:00:00Z"),
        updated_at=_at("2026-10-30T00:00:00Z"),
        state="CLOSED",
        state_reason="DUPLICATE",
        events=events,
    )


def test_an_issue_as_of_a_moment_has_the_state_and_activity_its_earlier_events_leave() -> None:
    comment = Comment(node_id="IC_1", at=_at("2026-10-02T00:00:00Z"), author=BOT, body="x")
    events = (
        comment,
        Closed(at=_at("2026-10-03T00:00:00Z"), actor=PIET, state_reason="DUPLICATE"),
        Reopened(at=_at("2026-10-05T00:00:00Z"), actor=PIET),
        LabelChange(kind="unlabeled", at=_at("2026-10-07T00:00:00Z"), actor=PIET, label="bug"),
    )
    issue = _issue(events)
    assert issue_as_of(issue, _at("2026-10-01T00:00:00Z")) is None  # created at that very moment
    closed = issue_as_of(issue, _at("2026-10-04T00:00:00Z"))
    assert closed is not None and (closed.state, closed.state_reason) == ("CLOSED", "DUPLICATE")
    assert closed.events == events[:2] and closed.updated_at == _at("2026-10-03T00:00:00Z")
    reopened = issue_as_of(issue, _at("2026-10-07T00:00:00Z"))  # the removal at that moment is later
    assert reopened is not None and (reopened.state, reopened.state_reason) == ("OPEN", "REOPENED")
    assert reopened.events == events[:3]
    reactions = [Reaction(actor=PIET, at=_at("2026-10-02T00:00:00Z")), Reaction(actor=PIET, at=None)]
    assert reactions_as_of(reactions, _at("2026-10-03T00:00:00Z")) == reactions[:1]


def test_a_window_the_read_may_not_reach_is_said() -> None:
    from datetime import timedelta

    from corrections.quality.as_of import outcome_as_of
    from corrections.read.issue_read import IssueRead
    from corrections.read.notes import OFF
    from corrections.read.outcome import ReadOutcome
    from corrections.read.status import Off
    from corrections.rules.settings import RuleSettings
    from corrections.rules.vocabulary import parse_vocabulary
    from tests.corrections.conftest import VOCABULARY, IssueBuilder

    settings = RuleSettings(vocabulary=parse_vocabulary(VOCABULARY))
    start = _at("2026-11-01T10:00:00Z")
    builders = [IssueBuilder(number=n, clock=start + timedelta(days=n)).analysis() for n in (1, 2)]
    reads = [IssueRead.of(b.build(), None, 100, settings) for b in reversed(builders)]
    outcome = ReadOutcome(repository="octo/r", window=tuple(reads), settings=settings)
    moment = start + timedelta(days=5)
    # Every issue was read: the window as of the moment is exact, even if not full.
    exact = outcome_as_of(outcome, moment, max_analyzed=5, settings=settings, read_back_to=None)
    assert [r.issue.number for r in exact.window] == [2, 1] and exact.warnings == ()
    # The read reached back only to day 2: a window of 5 as of day 5 may miss older issues.
    partial = outcome_as_of(
        outcome, moment, max_analyzed=5, settings=settings, read_back_to=start + timedelta(days=2)
    )
    assert partial.warnings == (
        "the context as of 2026-11-06T10:00:00Z may miss older issues: today's read reached back to "
        "issues active since 2026-11-03T10:00:00Z",
    )
    # A full window whose last issue is newer than the edge is exact.
    full = outcome_as_of(
        outcome, moment, max_analyzed=1, settings=settings, read_back_to=start + timedelta(days=2)
    )
    assert [r.issue.number for r in full.window] == [2] and full.warnings == ()
    # Turned off: no window, the note of a read with max_analyzed 0.
    off = outcome_as_of(outcome, moment, max_analyzed=0, settings=settings, read_back_to=None)
    assert off.status == Off(OFF) and off.window == () and off.learnings is None


def test_the_window_as_of_a_moment_is_the_one_every_issue_read_as_of_it_gives() -> None:
    """outcome_as_of reads only the issues that can rank (a month of 2,500 analyses, each with its
    context as of it): the window is the same as reading every issue as of the moment and sorting."""
    import random
    from datetime import timedelta

    from corrections.quality.as_of import outcome_as_of, read_as_of
    from corrections.read.issue_read import IssueRead
    from corrections.read.outcome import ReadOutcome
    from corrections.rules.settings import RuleSettings
    from corrections.rules.vocabulary import parse_vocabulary
    from tests.corrections.conftest import VOCABULARY, IssueBuilder

    settings = RuleSettings(vocabulary=parse_vocabulary(VOCABULARY))
    start = _at("2026-11-01T00:00:00Z")
    chance = random.Random(26)
    builders = []
    for number in range(1, 61):
        builder = IssueBuilder(number=number, clock=start + timedelta(hours=number)).analysis()
        for _ in range(chance.randrange(3)):  # later activity, out of the issues' order
            builder.clock += timedelta(hours=chance.randrange(1, 90))
            builder.comment(PIET, "still happens")
        builders.append(builder)
    reads = [IssueRead.of(b.build(), None, 100, settings) for b in builders]
    reads.sort(key=lambda r: r.issue.updated_at, reverse=True)
    outcome = ReadOutcome(repository="octo/r", window=tuple(reads), settings=settings)
    for hours in range(0, 160, 7):
        moment = start + timedelta(hours=hours, minutes=30)
        every = [then for read in reads if (then := read_as_of(read, moment, settings)) is not None]
        every.sort(key=lambda r: r.issue.updated_at, reverse=True)
        for size in (1, 5, 30):
            found = outcome_as_of(outcome, moment, max_analyzed=size, settings=settings, read_back_to=None)
            assert [r.issue.number for r in found.window] == [r.issue.number for r in every[:size]]


def test_the_lines_as_of_a_moment_are_the_rules_on_every_issue_as_it_then_stood() -> None:
    """The contexts of many moments from one read reuse what earlier moments computed: each line
    is still the rules on the issue as it stood, with the 👎 given before the moment."""
    import random
    from datetime import timedelta

    from corrections.quality.as_of import correct_as_of, outcome_as_of, read_as_of
    from corrections.read.issue_read import IssueRead
    from corrections.read.outcome import ReadOutcome
    from corrections.rules.models import Permission
    from corrections.rules.settings import RuleSettings
    from corrections.rules.vocabulary import parse_vocabulary
    from tests.corrections.conftest import VOCABULARY, IssueBuilder

    settings = RuleSettings(vocabulary=parse_vocabulary(VOCABULARY))
    start = _at("2026-11-01T00:00:00Z")
    chance = random.Random(7)
    builders = []
    for number in range(1, 41):
        builder = IssueBuilder(number=number, clock=start + timedelta(hours=chance.randrange(60)))
        builder.analysis()
        for _ in range(chance.randrange(4)):  # later activity, often in the same hour as others'
            builder.clock += timedelta(hours=chance.randrange(0, 30))
            builder.comment(PIET, "still happens")
        builders.append(builder)
    reads = [IssueRead.of(b.build(), None, 100, settings) for b in builders]
    reads.sort(key=lambda r: r.issue.updated_at, reverse=True)
    thumbs = {
        read.first.node_id: [
            Reaction(actor=PIET, at=None if chance.random() < 0.2 else start + timedelta(hours=h))
            for h in chance.sample(range(120), 2)
        ]
        for read in reads
        if read.first is not None and chance.random() < 0.6
    }
    outcome = ReadOutcome(
        repository="octo/r",
        window=tuple(reads),
        settings=settings,
        reactions=thumbs,
        permissions={"piet": Permission.WRITE},
    )
    counted = 0
    for hours in range(0, 130, 2):  # whole hours: events at the very moment are after it
        moment = start + timedelta(hours=hours)
        every = [then for read in reads if (then := read_as_of(read, moment, settings)) is not None]
        every.sort(key=lambda r: r.issue.updated_at, reverse=True)
        for size in (3, 30):
            found = outcome_as_of(outcome, moment, max_analyzed=size, settings=settings, read_back_to=None)
            expected = tuple(correct_as_of(then, moment, outcome, settings) for then in every[:size])
            assert found.corrections == expected
            counted += sum(line.thumbs_down for line in found.corrections)
    assert counted > 0  # the 👎 given before each moment were counted, and only those
