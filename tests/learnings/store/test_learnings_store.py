"""The JSONL store: every good line loads, every bad one is skipped with its line number; writes are
small diffs and atomic."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from assistant.files import write_atomic
from learnings.store.edit import add, remove
from learnings.store.jsonl import parse_jsonl, to_jsonl, to_line, updated_text

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def test_corrupt_and_future_lines_are_skipped_and_the_rest_loads(samples: Path) -> None:
    text = (samples / "corrupt.jsonl").read_text(encoding="utf-8")
    loaded = parse_jsonl(text, source=".github/assistant/learnings.jsonl")
    assert [learning.id for learning in loaded.learnings] == ["l_x7c2", "l_p2r9", "l_last"]
    assert loaded.warnings == (
        ".github/assistant/learnings.jsonl:2: not valid JSON, skipped",
        ".github/assistant/learnings.jsonl:3: not valid JSON, skipped",
        ".github/assistant/learnings.jsonl:5: unknown version `v` = 2, skipped",
        ".github/assistant/learnings.jsonl:6: not a JSON object, skipped",
        ".github/assistant/learnings.jsonl:7: no version `v`, skipped",
        ".github/assistant/learnings.jsonl:8: not a valid learning: `paths`: bad glob `src/[api`:"
        " unclosed `[`, skipped",
        ".github/assistant/learnings.jsonl:9: not a valid learning: `createdAt`: Input should have"
        " timezone info, skipped",
        ".github/assistant/learnings.jsonl:10: not a valid learning: `status`: Field required, skipped",
        ".github/assistant/learnings.jsonl:12: id `l_x7c2` already used above, skipped",
        '.github/assistant/learnings.jsonl:13: unknown version `v` = "1", skipped',
    )


def test_a_line_reads_with_its_source_and_dates(samples: Path) -> None:
    loaded = parse_jsonl((samples / "corrupt.jsonl").read_text(encoding="utf-8"), source="f")
    suppression = loaded.learnings[1]
    assert suppression.kind == "suppression"
    assert suppression.category == "sql-injection"
    assert suppression.source.pull_request == 77
    assert suppression.source.accepted_by == "alice"
    assert loaded.learnings[2].updatedAt == datetime(2026, 10, 6, 7, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"scope": "path"}, 'scope "path" needs at least one path'),
        ({"kind": "suppression", "category": "x"}, "a suppression needs a category and at least one path"),
        ({"text": "   "}, "text is blank"),
        ({"id": "x7c2"}, "`id`"),
        ({"source": {"issue": 1, "pull_request": 2}}, "an issue or a pull request, not both"),
        ({"source": {"accepted_by": "bob; rm -rf"}}, "`source.accepted_by`"),
        ({"v": 1.0}, "unknown version `v` = 1.0"),
    ],
)
def test_invalid_learnings_name_the_problem(fields: dict[str, object], problem: str) -> None:
    data = {
        "v": 1,
        "id": "l_abcd",
        "scope": "repo",
        "kind": "note",
        "text": "t",
        "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
        "status": "active",
        **fields,
    }
    loaded = parse_jsonl(json.dumps(data) + "\n", source="f")
    assert loaded.learnings == ()
    assert len(loaded.warnings) == 1
    assert loaded.warnings[0].startswith("f:1: ")
    assert problem in loaded.warnings[0]


def test_lines_round_trip(samples: Path) -> None:
    loaded = parse_jsonl((samples / "corrupt.jsonl").read_text(encoding="utf-8"), source="f")
    again = parse_jsonl(to_jsonl(loaded.learnings), source="f")
    assert again.learnings == loaded.learnings
    assert again.warnings == ()


def test_line_format_is_the_documented_one(line: Callable[..., str]) -> None:
    text = line("l_x7c2", "t", paths=["test/**"], source={"issue": 142, "comment": 98123})
    (learning,) = parse_jsonl(text, source="f").learnings
    assert to_line(learning) == (
        '{"v": 1, "id": "l_x7c2", "scope": "path", "kind": "note", "text": "t", "paths": ["test/**"],'
        ' "category": null, "source": {"issue": 142, "comment": 98123}, "createdAt": "2026-01-01T00:00:00Z",'
        ' "updatedAt": "2026-01-01T00:00:00Z", "status": "active"}'
    )


def test_only_a_line_separator_inside_a_string_does_not_split_lines(line: Callable[..., str]) -> None:
    text = line("l_aaaa", "one\u2028two").replace("\\u2028", "\u2028") + "\n"
    loaded = parse_jsonl(text, source="f")
    assert [learning.text for learning in loaded.learnings] == ["one\u2028two"]


def test_edits_touch_only_the_lines_that_change(samples: Path) -> None:
    original = (samples / "corrupt.jsonl").read_text(encoding="utf-8")
    loaded = parse_jsonl(original, source="f")
    learnings, _retired = remove(loaded.learnings, "l_p2r9", NOW)
    learnings, added = add(learnings, "A brand new learning", ["docs/**"], None, NOW)
    text = updated_text(original, learnings)
    before, after = original.split("\n"), text.split("\n")
    changed = [
        number for number, (old, new) in enumerate(zip(before[:-1], after, strict=False), 1) if old != new
    ]
    assert changed == [11]
    assert '"status": "retired"' in after[10]
    assert after[len(before) - 1] == to_line(added)
    assert len(after) == len(before) + 1


def test_unchanged_store_writes_back_identically(samples: Path) -> None:
    original = (samples / "corrupt.jsonl").read_text(encoding="utf-8")
    assert updated_text(original, parse_jsonl(original, source="f").learnings) == original


def test_crlf_lines_and_a_missing_final_newline_are_kept(line: Callable[..., str]) -> None:
    original = line("l_aaaa", "first") + "\r\n" + line("l_bbbb", "second")
    loaded = parse_jsonl(original, source="f")
    assert len(loaded.learnings) == 2
    assert updated_text(original, loaded.learnings) == original
    learnings, _ = remove(loaded.learnings, "l_aaaa", NOW)
    first, second = updated_text(original, learnings).split("\r\n")
    assert '"retired"' in first
    assert second == line("l_bbbb", "second")
    learnings, new = add(loaded.learnings, "third", [], None, NOW)
    assert updated_text(original, learnings) == original + "\n" + to_line(new) + "\n"


def test_atomic_write_replaces_the_file(tmp_path: Path) -> None:
    target = tmp_path / "learnings.jsonl"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    write_atomic(target, "new\r\n")
    assert target.read_bytes() == b"new\r\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(path.name for path in tmp_path.iterdir()) == ["learnings.jsonl"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "learnings.jsonl"
    target.write_bytes(b"precious\n")

    def failing_replace(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="No space left"):
        write_atomic(target, "half written")
    assert target.read_bytes() == b"precious\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["learnings.jsonl"]


def _deep_stack(depth: int, then: Callable[[], object]) -> object:
    return then() if depth == 0 else _deep_stack(depth - 1, then)


@pytest.mark.parametrize(
    "line",
    [
        "[" * 1_000,
        "[" * 100_000,
        '{"a": ' * 5_000,
        '{"v": 1, "id": "l_abcd", "paths": ' + "[" * 900 + "]" * 900 + "}",
    ],
)
def test_a_line_nested_too_deeply_is_skipped_and_the_rest_loads(line: str) -> None:
    (good_learning,), _new = add([], "keep me", (), None, NOW)
    good = to_line(good_learning)
    text = f"{line}\n{good}\n"
    for loaded in [
        parse_jsonl(text, source="base:learnings.jsonl"),
        # however deep the caller's own stack already is
        _deep_stack(800, lambda: parse_jsonl(text, source="base:learnings.jsonl")),
    ]:
        assert isinstance(loaded, type(parse_jsonl("", source="x")))
        assert [learning.text for learning in loaded.learnings] == ["keep me"]
        (warning,) = loaded.warnings
        assert warning.startswith("base:learnings.jsonl:1: ")
        assert warning.endswith(", skipped")
