"""`corrections marker` and `analysis_marker`: what they write, the reader's own parser reads back."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.identity import Identity
from corrections.commands.cli import main
from corrections.rules.analysis_marker import KINDS, MarkerPayload, Receipt, analysis_marker, read_payload
from corrections.rules.markers import MarkerError, parse_analysis
from corrections.rules.models import Actor, Analysis, Comment
from tests.corrections.conftest import ASSISTANT

ROOT = Path(__file__).resolve().parents[3]
FORBIDDEN = {"Cc", "Zl", "Zp"}
IDENTITY = Identity(login=ASSISTANT.login, account="bot")


def read_back(body: str) -> Analysis | None:
    """The analysis the reader finds in a comment of the assistant with this body."""
    comment = Comment(
        node_id="IC_1",
        database_id=2_400_000_001,
        at=datetime(2026, 11, 1, tzinfo=UTC),
        author=ASSISTANT,
        body=body,
    )
    return parse_analysis(comment, 0, IDENTITY)


# Any text GitHub might call a label: emoji, ZWJ sequences, quotes, backslashes, `-->`, `<`, `&`.
label_names = (
    st.lists(
        st.text(alphabet=st.characters(codec="utf-8"), max_size=8)
        | st.sampled_from(["-->", "--!>", "<!--", "<", ">", "&", '"', "\\", "\u200d", "🐛"]),
        min_size=1,
        max_size=6,
    )
    .map("".join)
    .filter(
        lambda name: (
            bool(name)
            and name == name.strip()
            and all(unicodedata.category(c) not in FORBIDDEN for c in name)
        )
    )
)


@settings(max_examples=300, deadline=None)
@given(
    labels=st.lists(label_names, max_size=6),
    duplicate_of=st.none() | st.integers(min_value=1, max_value=2**53),
    kind=st.sampled_from(["first", "follow-up"]),
    text=st.text(max_size=200).filter(lambda text: "<!--" not in text),
    spaces=st.sampled_from(["", "\n", "\n\n", " \t\r\n"]),
    last=st.booleans(),
)
def test_the_reader_reads_back_what_the_writer_wrote(  # noqa: PLR0917 - hypothesis arguments
    labels: list[str], duplicate_of: int | None, kind: str, text: str, spaces: str, last: bool
) -> None:
    """The marker as the last thing of the comment (as the workflow posts it), or the first."""
    line = analysis_marker(labels, duplicate_of, kind)  # type: ignore[arg-type]
    # One line, one comment start and one end: no label can close the comment early, in the
    # reader (`-->`) or in a browser's HTML parser (`--!>`), nor start markup.
    assert "\n" not in line and "\r" not in line
    assert line.count("<!--") == 1 and line.count("-->") == 1 and line.endswith(" -->")
    assert "--!>" not in line and "<" not in line[4:] and ">" not in line[:-3]
    analysis = read_back(f"{text}\n{line}{spaces}" if last else f"{spaces}{line}\n{text}")
    assert analysis is not None
    assert (analysis.labels, analysis.duplicate_of, analysis.kind) == (tuple(labels), duplicate_of, kind)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("context", [None, Receipt(), Receipt((412, 398), ("l_x7c2", "l_9k2m"))])
@pytest.mark.parametrize(("labels", "duplicate_of"), [((), None), (("bug", "crash"), 12)])
def test_every_kind_of_marker_is_read_as_it_was_written(
    kind: str, context: Receipt | None, labels: tuple[str, ...], duplicate_of: int | None
) -> None:
    """One schema both ways: the writer's payload, parsed by the reader, is the payload written."""
    written = MarkerPayload(kind, labels, duplicate_of, context)  # type: ignore[arg-type]
    line = analysis_marker(labels, duplicate_of, kind, context)  # type: ignore[arg-type]
    value = json.loads(line.removeprefix("<!-- assistant:analysis ").removesuffix(" -->"))
    assert value == written.json_value()
    assert ("context" in value) is (context is not None)
    assert read_payload(value) == (written, None)
    analysis = read_back(f"An analysis.\n\n{line}")
    assert analysis is not None
    read = (analysis.kind, analysis.labels, analysis.duplicate_of, analysis.receipt)
    assert read == (kind, labels, duplicate_of, context)


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ([], "expected a JSON object"),
        ({"kind": "first"}, "v: expected 1, got None"),
        ({"v": True, "kind": "first"}, "v: expected 1, got True"),
        ({"v": 1.0, "kind": "first"}, "v: expected 1, got 1.0"),
        ({"v": 1}, "kind: expected 'first' or 'follow-up', got None"),
        ({"v": 1, "kind": "first", "labels": "bug"}, "labels: expected a list of label names"),
        ({"v": 1, "kind": "first", "labels": ["bug", ""]}, "labels: expected a list of label names"),
        (
            {"v": 1, "kind": "first", "duplicate_of": 0},
            "duplicate_of: expected a positive issue number, got 0",
        ),
        ({"v": 1, "kind": "first", "duplicate_of": "12"}, "duplicate_of: expected a positive issue number"),
    ],
)
def test_what_the_schema_refuses_is_said_by_the_reader(value: object, reason: str) -> None:
    with pytest.raises(MarkerError, match=re.escape(reason)):
        read_payload(value)
    body = "An analysis.\n\n<!-- assistant:analysis " + json.dumps(value) + " -->"
    with pytest.raises(MarkerError, match=re.escape(f"analysis marker does not parse ({reason}")):
        read_back(body)


def test_a_receipt_that_does_not_parse_leaves_the_rest_of_the_marker() -> None:
    value = {"v": 1, "kind": "first", "labels": ["bug"], "context": {"corrections": [-1]}, "extra": 1}
    payload, refused = read_payload(value)
    assert payload == MarkerPayload("first", ("bug",))
    assert refused is not None and "context.corrections" in str(refused)


def test_a_payload_that_is_not_json_is_named_with_its_line_and_column() -> None:
    with pytest.raises(MarkerError, match=r"does not parse \(Invalid JSON: .* at line 1 column \d+\)"):
        read_back('<!-- assistant:analysis {"v": 1 "kind": "first"} -->')


def test_the_documented_shape() -> None:
    assert analysis_marker(["bug", "crash"]) == (
        '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["bug", "crash"], "duplicate_of": null} -->'
    )
    line = analysis_marker([], 120, "follow-up")
    payload = json.loads(line.removeprefix("<!-- assistant:analysis ").removesuffix(" -->"))
    assert payload == {"v": 1, "kind": "follow-up", "labels": [], "duplicate_of": 120}


@pytest.mark.parametrize(
    ("labels", "duplicate_of", "message"),
    [
        ([""], None, "cannot be empty"),
        (["  "], None, "cannot be empty"),
        ([" bug"], None, "white space"),
        (["bug\n"], None, "white space"),
        (["b\nug"], None, "control character or line break (U+000A)"),
        (["b\x00ug"], None, "(U+0000)"),
        (["b\u2028ug"], None, "(U+2028)"),
        (["bug"], 0, "positive issue number"),
        (["bug"], -3, "positive issue number"),
        (["bug"], True, "positive issue number"),
    ],
)
def test_what_cannot_be_a_marker_is_refused(
    labels: list[str], duplicate_of: int | None, message: str
) -> None:
    with pytest.raises(MarkerError, match=re.escape(message)):
        analysis_marker(labels, duplicate_of)


def test_the_command_prints_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["marker", "--labels", "bug, crash", "--labels", "platform-windows", "--duplicate-of", "#12"])
        == 0
    )
    line = capsys.readouterr().out
    assert line == analysis_marker(["bug", "crash", "platform-windows"], 12) + "\n"
    analysis = read_back("Looks like a crash.\n\n" + line)
    assert analysis is not None and analysis.labels == ("bug", "crash", "platform-windows")
    assert main(["marker", "--labels", "", "--follow-up"]) == 0
    analysis = read_back(capsys.readouterr().out)
    assert analysis is not None and (analysis.labels, analysis.kind, analysis.duplicate_of) == (
        (),
        "follow-up",
        None,
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--labels", "bug,,crash"], "corrections: error: --labels: an empty label name in 'bug,,crash'"),
        (
            ["--labels", "a\tb"],
            "corrections: error: label 'a\\tb': a label name cannot hold a control character",
        ),
    ],
)
def test_the_command_refuses_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)  # the plain form, as at a terminal
    assert main(["marker", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(message) and captured.err.count("\n") == 1


@pytest.mark.parametrize("value", ["0", "-3", "twelve"])
def test_a_duplicate_that_is_no_issue_number_is_a_usage_error(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["marker", "--labels", "bug", "--duplicate-of", value])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "argument --duplicate-of: expected an issue number" in captured.err


def test_inside_actions_a_refusal_is_an_annotation_on_stderr_never_in_the_marker_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A workflow appends the command's stdout to the comment it posts: nothing else may land there.
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    assert main(["marker", "--labels", "bug,,crash"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("::error title=corrections::--labels: an empty label name")


def test_a_marker_from_someone_else_is_still_not_an_analysis() -> None:
    line = analysis_marker(["bug"])
    comment = Comment(
        node_id="IC_2",
        database_id=2_400_000_002,
        at=datetime(2026, 11, 1, tzinfo=UTC),
        author=Actor(login="mallory"),
        body=line,
    )
    assert parse_analysis(comment, 0, IDENTITY) is None


def test_the_writer_imports_no_network_stack() -> None:
    code = (
        "import sys, corrections.rules.markers, assistant.version; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'aiohttp', 'gql', 'graphql', 'multidict', 'queries', 'yarl'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
