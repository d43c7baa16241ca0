"""The one parser of the model's answer (issue 32; issue 36, item 3), on samples of what models
answer: `corrections answer` and the backtest read every sample alike.

Each `tests/samples/model-answer/NAME.txt` holds an answer; `NAME.expected.json` what it means
(or the refusal's words). Before, `{"labels": "bug"}` was an error to the backtest and "no
labels" to `corrections answer`, and a `duplicate_of` equal to the issue's own number was scored
by one and dropped by the other.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corrections.quality.backtest_score import parse_answer, proposed
from corrections.render.answer import Known, clean_answer
from corrections.render.model_answer import AnswerError, decode_answer, unfenced
from corrections.rules.vocabulary import Vocabulary

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "model-answer"
NAMES = sorted(path.stem for path in SAMPLES.glob("*.txt"))
ISSUE = 61
VOCABULARY = ("bug", "question", "docs", "possible-duplicate")


def _sample(name: str) -> tuple[str, dict[str, object]]:
    text = (SAMPLES / f"{name}.txt").read_text(encoding="utf-8")
    return text, json.loads((SAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))


def test_there_are_samples_of_each_kind() -> None:
    expected = [_sample(name)[1] for name in NAMES]
    assert sum("error" in e for e in expected) >= 3 and sum("error" not in e for e in expected) >= 6


@pytest.mark.parametrize("name", NAMES)
def test_each_sample_decodes_as_recorded(name: str) -> None:
    text, expected = _sample(name)
    if "error" in expected:
        with pytest.raises(AnswerError, match=str(expected["error"])):
            decode_answer(text, ISSUE)
        return
    found = decode_answer(text, ISSUE)
    assert {
        "labels": list(found.labels),
        "duplicate_of": found.duplicate_of,
        "analysis": found.analysis,
        "notes": list(found.notes),
    } == expected


@pytest.mark.parametrize("name", NAMES)
def test_the_backtest_scores_what_corrections_answer_posts(name: str) -> None:
    text, expected = _sample(name)
    if "error" in expected:
        with pytest.raises(AnswerError):
            parse_answer(text, ISSUE)
        with pytest.raises(AnswerError):
            clean_answer(text, issue=ISSUE, known=Known(vocabulary=VOCABULARY))
        return
    scored = parse_answer(text, ISSUE)
    posted = clean_answer(text, issue=ISSUE, known=Known(vocabulary=VOCABULARY))
    assert scored.duplicate_of == posted.duplicate_of
    vocabulary = Vocabulary(names=VOCABULARY)
    assert proposed(scored, vocabulary, "possible-duplicate") == set(posted.labels) - {"possible-duplicate"}


def test_a_string_label_is_the_one_label_it_names_and_the_own_number_no_notice() -> None:
    found = decode_answer('{"labels": "bug", "duplicate_of": 61, "analysis": "x"}', ISSUE)
    assert (found.labels, found.duplicate_of) == (("bug",), None)
    assert parse_answer('{"labels": "bug", "duplicate_of": 61}', ISSUE).labels == ("bug",)


def test_the_backtest_reads_a_marker_by_the_markers_one_schema() -> None:
    marker = '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["bug"], "duplicate_of": 4} -->'
    assert parse_answer(f"Text.\n\n{marker}\n", ISSUE).labels == ("bug",)
    assert parse_answer(f"Text.\n\n{marker.replace('4}', '61}')}\n", ISSUE).duplicate_of is None
    with pytest.raises(AnswerError, match="marker does not parse"):
        parse_answer(marker.replace('"v": 1', '"v": 9'), ISSUE)


@pytest.mark.parametrize(
    ("text", "inner"),
    [
        ('```json\n{"a": 1}\n```', '{"a": 1}'),
        ('````\n{"a": 1}\n````', '{"a": 1}'),
        ('```JSON\n{"a": 1}\n```\n', '{"a": 1}'),
        ('```\n{"a": 1}', '```\n{"a": 1}'),  # never closed: not a fence around the answer
        ('```json\n{"a": "```"}\n``', '```json\n{"a": "```"}\n``'),  # a shorter closing line
        ('{"a": "```"}', '{"a": "```"}'),
    ],
)
def test_one_fence_around_the_whole_answer_is_taken_off(text: str, inner: str) -> None:
    assert unfenced(text) == inner


def test_an_answer_far_too_long_is_refused_unread() -> None:
    with pytest.raises(AnswerError, match="longer than"):
        decode_answer('{"analysis": "' + "x" * 1_000_001 + '"}', ISSUE)
    with pytest.raises(AnswerError, match="nothing to post"):
        decode_answer("[" * 100_000, ISSUE)
