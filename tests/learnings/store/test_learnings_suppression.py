"""Suppressions: a recorded false positive is not posted again, and nothing else is stopped."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from assistant.files import write_atomic
from learnings.rules.model import Learning, Source
from learnings.store.jsonl import parse_jsonl, updated_text
from learnings.store.suppression import Finding, fingerprint, is_suppressed, postable, suppress

MakeLearning = Callable[..., Learning]
NOW = datetime(2026, 11, 2, 8, 0, tzinfo=UTC)


def test_fingerprint_is_short_stable_and_depends_on_category_and_path() -> None:
    assert fingerprint("sql-injection", "src/db/raw.py") == "012fa8cba44f"
    assert fingerprint("sql-injection", "src/db/raw.py") != fingerprint("sql-injection", "src/db/orm.py")
    assert fingerprint("sql-injection", "src/db/raw.py") != fingerprint("xss", "src/db/raw.py")
    assert fingerprint("a", "b\0c") != fingerprint("a\0b", "c")
    finding = Finding(category="xss", path="web/a.js")
    assert finding.fingerprint == fingerprint("xss", "web/a.js")


def test_recorded_suppression_stops_the_same_finding_only(samples: Path, tmp_path: Path) -> None:
    recorded = json.loads((samples / "review-findings.json").read_text(encoding="utf-8"))
    store = tmp_path / "learnings.jsonl"
    first = [Finding.model_validate(item) for item in recorded["first_review"]]
    assert postable(first, []) == first

    ignored = Finding.model_validate(recorded["maintainer_ignores"])
    learnings, suppression = suppress([], ignored, NOW, source=Source(pull_request=77, comment=5512))
    write_atomic(store, updated_text("", learnings))

    loaded = parse_jsonl(store.read_text(encoding="utf-8"), source=str(store))
    assert loaded.learnings == (suppression,)
    assert suppression.kind == "suppression"
    assert suppression.category == "sql-injection"
    assert suppression.paths == ("src/db/raw.py",)
    assert ignored.fingerprint in suppression.text

    following = [Finding.model_validate(item) for item in recorded["next_review"]]
    posted = postable(following, loaded.learnings)
    assert [(finding.category, finding.path) for finding in posted] == [
        ("sql-injection", "src/db/orm.py"),
        ("unused-import", "src/db/raw.py"),
        ("sql-injection", "src/db/raw.py.bak"),
    ]


def test_suppressing_the_same_finding_twice_keeps_one_learning() -> None:
    finding = Finding(category="xss", path="web/a.js")
    learnings, first = suppress([], finding, NOW)
    learnings, again = suppress(learnings, finding, NOW)
    assert learnings == [again]
    assert again.id == first.id


def test_a_path_with_wildcard_characters_is_matched_literally() -> None:
    finding = Finding(category="xss", path="web/[id]/page.tsx")
    learnings, _ = suppress([], finding, NOW)
    assert is_suppressed(finding, learnings)
    assert not is_suppressed(Finding(category="xss", path="web/i/page.tsx"), learnings)


def test_a_glob_suppression_covers_a_folder(make_learning: MakeLearning) -> None:
    vendored = make_learning(
        "l_vend", "vendored code", kind="suppression", category="style", paths=["vendor/**"]
    )
    assert is_suppressed(Finding(category="style", path="vendor/lib/a.c"), [vendored])
    assert not is_suppressed(Finding(category="style", path="src/a.c"), [vendored])


def test_retired_suppressions_and_notes_stop_nothing(make_learning: MakeLearning) -> None:
    finding = Finding(category="style", path="src/a.c")
    retired = make_learning(
        "l_retd", "old", kind="suppression", category="style", paths=["src/**"], status="retired"
    )
    note = make_learning("l_note", "note", category="style", paths=["src/**"])
    assert not is_suppressed(finding, [retired, note])
