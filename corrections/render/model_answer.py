"""The model's answer, decoded once: the one parser `corrections answer`, the backtest and the
loop (which posts through `corrections answer`) read an answer with.

The prompt asks for one JSON object, `{"labels": [...], "duplicate_of": N | null, "analysis":
"..."}`. Models wrap it in a code fence and bend its types; what a maintainer reading the answer
would take it to mean is what counts (docs/rules.md, "The model's answer"):

- the whole answer may sit in one fence (```json or ```), and nothing else may: text around the
  object, or an array, is no answer (AnswerError, the one exception: nothing is posted);
- `labels`: a list of names; a single string is the one label it names; null or absent is no
  label; anything else is no label, with a note; an item that is not a name is left out, counted;
- `duplicate_of`: a positive whole number, or a string holding one (`"12"`, `"#12"`); null or
  absent is no notice; the issue's own number, or anything else, is no notice, with a note;
- `analysis`: a string; anything else is no text, with a note.

Plain Python, no regular expression on the answer: it was written under the influence of a
stranger's issue.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# Far beyond any answer a model gives for one issue (GitHub's comment limit is 65,536 characters):
# a larger one is no answer, and is never parsed.
MAX_ANSWER_CHARS = 1_000_000
_MAX_NUMBER_DIGITS = 9  # issue numbers in a string: `#123456789` at most


class AnswerError(ValueError):
    """An answer with nothing that can be posted; the message says why, in one line."""


@dataclass(frozen=True)
class ModelAnswer:
    """What the model answered, as read: label names (stripped, as it spelled them), the issue it
    named as a duplicate, its text, and notes on what was left out and why."""

    labels: tuple[str, ...] = ()
    duplicate_of: int | None = None
    analysis: str = ""
    notes: tuple[str, ...] = ()
    not_names: int = 0  # items of `labels` that are no label name (a number, null, "")


def unfenced(text: str) -> str:
    """`text` without one code fence around all of it (```json ... ``` or ``` ... ```)."""
    lines = text.strip().split("\n")
    if len(lines) < 2:
        return text
    opening, closing = lines[0].strip(), lines[-1].strip()
    fence = opening[: len(opening) - len(opening.lstrip("`"))]
    closed = len(fence) >= 3 and len(closing) >= len(fence) and set(closing) == {"`"}
    if closed and opening[len(fence) :].strip().casefold() in {"", "json"}:
        return "\n".join(lines[1:-1])
    return text


def _labels(value: Any) -> tuple[tuple[str, ...], int, list[str]]:
    if value is None:
        return (), 0, []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return (), 0, ["`labels` is not a list of label names: no label"]
    names = tuple(item.strip() for item in value if isinstance(item, str) and item.strip())
    return names, len(value) - len(names), []


def _number(value: Any) -> int | None:
    """A positive whole number, or a string that holds one (`12`, `#12`); None otherwise."""
    if isinstance(value, str):
        digits = value.strip().removeprefix("#")
        if not (0 < len(digits) <= _MAX_NUMBER_DIGITS and digits.isascii() and digits.isdigit()):
            return None
        value = int(digits)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        return None
    return value


def _duplicate(value: Any, issue: int) -> tuple[int | None, list[str]]:
    if value is None:
        return None, []
    number = _number(value)
    if number is None:
        return None, ["duplicate_of is not an issue number: no duplicate notice"]
    if number == issue:
        return None, [f"duplicate_of names this issue (#{issue}) itself: no duplicate notice"]
    return number, []


def decode_answer(text: str, issue: int) -> ModelAnswer:
    """The model's answer to the analysis of `issue`; raises AnswerError when it is not one JSON
    object (a fence around it allowed)."""
    if len(text) > MAX_ANSWER_CHARS:
        raise AnswerError(
            f"the model's answer is longer than {MAX_ANSWER_CHARS:,} characters; nothing to post"
        )
    try:
        found = json.loads(unfenced(text))
    except (ValueError, RecursionError) as error:
        raise AnswerError(f"the model did not answer with JSON ({error}); nothing to post") from error
    if not isinstance(found, dict):
        raise AnswerError("the model did not answer with a JSON object; nothing to post")
    labels, not_names, notes = _labels(found.get("labels"))
    duplicate, more = _duplicate(found.get("duplicate_of"), issue)
    analysis = found.get("analysis")
    if not isinstance(analysis, str):
        more.append("the answer has no analysis text: the comment holds only the marker")
        analysis = ""
    return ModelAnswer(labels, duplicate, analysis, tuple(notes + more), not_names)


def chosen_labels(wanted: Sequence[str], vocabulary: Sequence[str]) -> tuple[tuple[str, ...], int]:
    """The vocabulary labels among `wanted`, in labels.md's order and spelling (names compare
    case-insensitively), and how many of `wanted` were left out: not in the vocabulary, or holding
    a comma (which `gh issue edit --add-label` would split)."""
    usable = {name.casefold() for name in vocabulary if "," not in name}
    asked = [name.strip().casefold() for name in wanted]
    chosen = tuple(name for name in vocabulary if name.casefold() in usable and name.casefold() in asked)
    return chosen, sum(1 for name in asked if name not in usable)
