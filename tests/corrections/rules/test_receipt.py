"""The analysis marker's receipt (`"context"`): written by `corrections marker --context DIR` from the
folder `corrections read` wrote, read back by the reader, bounded, optional."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from corrections.commands.cli import main
from corrections.render.context_folder import read_index
from corrections.rules.analysis_marker import (
    MAX_RECEIPT_CORRECTIONS,
    MAX_RECEIPT_LEARNINGS,
    MarkerError,
    Receipt,
    analysis_marker,
)
from corrections.rules.issue import analyses
from corrections.rules.markers import parse_analysis
from corrections.rules.models import Comment, Issue
from corrections.rules.settings import RuleSettings
from tests.corrections.conftest import ASSISTANT
from tests.corrections.rules.test_marker import IDENTITY, read_back

AT = datetime(2026, 11, 1, tzinfo=UTC)


def _body(payload: dict[str, object]) -> str:
    return "An analysis.\n\n<!-- assistant:analysis " + json.dumps(payload) + " -->"


def test_the_receipt_is_written_and_read_back() -> None:
    line = analysis_marker(["bug"], context=Receipt((412, 398), ("l_x7c2",)))
    payload = json.loads(line.removeprefix("<!-- assistant:analysis ").removesuffix(" -->"))
    assert payload == {
        "v": 1,
        "kind": "first",
        "labels": ["bug"],
        "duplicate_of": None,
        "context": {"corrections": [412, 398], "learnings": ["l_x7c2"]},
    }
    analysis = read_back(line)
    assert analysis is not None and analysis.receipt == Receipt((412, 398), ("l_x7c2",))


def test_a_marker_without_a_receipt_stays_valid() -> None:
    analysis = read_back(analysis_marker(["bug"]))
    assert analysis is not None and analysis.labels == ("bug",) and analysis.receipt is None
    empty = read_back(analysis_marker([], context=Receipt()))
    assert empty is not None and empty.receipt == Receipt()


@pytest.mark.parametrize(
    ("context", "reason"),
    [
        ({"corrections": list(range(1, MAX_RECEIPT_CORRECTIONS + 2))}, "more than the widest window (100)"),
        (
            {"learnings": [f"l_{n:04}" for n in range(MAX_RECEIPT_LEARNINGS + 1)]},
            "more than the largest learnings block (200)",
        ),
        ({"corrections": [0]}, "positive issue numbers"),
        ({"corrections": [True]}, "positive issue numbers"),
        ({"learnings": ["has space"]}, "a list of learning ids"),
        ("412", "expected an object"),
    ],
)
def test_a_receipt_that_does_not_parse_is_left_out_with_a_warning(context: object, reason: str) -> None:
    payload = {"v": 1, "kind": "first", "labels": ["bug"], "duplicate_of": None, "context": context}
    comment = Comment(node_id="IC_1", database_id=2_400_000_001, at=AT, author=ASSISTANT, body=_body(payload))
    warnings: list[str] = []
    analysis = parse_analysis(comment, 0, IDENTITY, warnings)
    assert analysis is not None and analysis.labels == ("bug",) and analysis.receipt is None
    assert len(warnings) == 1 and warnings[0].startswith("comment 2400000001: the analysis's receipt")
    assert reason in warnings[0]
    # The rules' own list of analyses names the issue too.
    issue = Issue(number=7, title="t", created_at=AT, updated_at=AT, events=(comment,))
    found, said = analyses(issue, RuleSettings(assistant=IDENTITY))
    assert len(found) == 1 and said == [f"#7 {warnings[0]}"]


def test_the_writer_refuses_what_the_reader_would_leave_out() -> None:
    with pytest.raises(MarkerError, match="more than the widest window"):
        analysis_marker(["bug"], context=Receipt(tuple(range(1, MAX_RECEIPT_CORRECTIONS + 2))))


def _folder(tmp_path: Path, document: object) -> Path:
    (tmp_path / "corrections.json").write_text(json.dumps(document), encoding="utf-8")
    return tmp_path


def test_the_folder_gives_its_correction_lines_and_learnings(tmp_path: Path) -> None:
    folder = _folder(
        tmp_path,
        {"v": 1, "window": [9, 8, 7], "corrections": [{"number": 8}, {"number": 7}], "learnings": ["l_ab12"]},
    )
    assert read_index(folder).receipt(folder) == Receipt((8, 7), ("l_ab12",))
    # A folder of an older reader (no `learnings` key) gives no learnings.
    older = _folder(tmp_path, {"v": 1, "window": [], "corrections": []})
    assert read_index(older).receipt(older) == Receipt()


def test_the_command_writes_the_receipt_of_the_folder_the_read_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "context"
    assert main(["demo", "--out", str(out)]) == 0
    capsys.readouterr()
    written = json.loads((out / "corrections.json").read_text(encoding="utf-8"))
    learnings = (out / "learnings.md").read_text(encoding="utf-8")
    assert written["learnings"] and all(f"{ident} ·" in learnings for ident in written["learnings"])
    assert main(["marker", "--labels", "bug", "--context", str(out)]) == 0
    analysis = read_back(capsys.readouterr().out)
    assert analysis is not None and analysis.receipt == Receipt(
        tuple(c["number"] for c in written["corrections"]), tuple(written["learnings"])
    )


def test_a_folder_without_corrections_json_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    assert main(["marker", "--labels", "bug", "--context", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"corrections: error: {tmp_path}/corrections.json: not found; write the folder with "
        "`corrections read` first\n"
    )
