"""The event payload's one decoder (commandline/event.py), on recorded samples: the action's step
and `corrections prompt --event` read `$GITHUB_EVENT_PATH` through it, and `read_event` takes the
new issue from what it gives.

Each `tests/samples/event/NAME.json` is an event payload in the shape GitHub's runner writes it
(an `issues` event, a `push` event, one cut short); `NAME.expected.json` the issue it gives or the
refusal's words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from commandline.event import EventError, read_event_payload
from corrections.render.new_issue import read_event

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "event"
NAMES = sorted(path.stem for path in SAMPLES.glob("*.json") if not path.stem.endswith(".expected"))


@pytest.mark.parametrize("name", NAMES)
def test_each_sample_gives_its_issue_or_its_refusal(name: str) -> None:
    path = SAMPLES / f"{name}.json"
    expected = json.loads((SAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))
    if "error" in expected:
        with pytest.raises(EventError, match=f"^{path}: {expected['error']}"):
            read_event(path, None)
        return
    issue = read_event(path, None)
    assert {
        "number": issue.number,
        "title": issue.title,
        "author": issue.author,
        "body": issue.body,
    } == expected


def test_a_missing_file_is_named() -> None:
    with pytest.raises(EventError, match=r"nowhere\.json: not found$"):
        read_event_payload(Path("nowhere.json"))
    assert isinstance(read_event_payload(SAMPLES / "push.json"), dict)
