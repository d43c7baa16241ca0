"""The JSONL store: text to learnings with a warning per skipped line, and learnings back to text.

Parsing never fails: a line that is not JSON, nested too deeply, not a valid learning, of an unknown
version or with an id already used is skipped with a warning naming the source and the line
number, and every other line loads. Writing keeps the file's order and every line that did not change byte for byte
(skipped lines included), appends new learnings at the end, and replaces the file atomically.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from assistant.validation import validation_problem
from learnings.rules.model import VERSION, Learning


class LoadedLearnings(BaseModel):
    """What a store's text holds: the learnings in file order, and one warning per skipped line."""

    model_config = ConfigDict(frozen=True)

    learnings: tuple[Learning, ...] = ()
    warnings: tuple[str, ...] = ()


def _lines(text: str) -> list[str]:
    """The lines with their line feeds; only `\\n` ends a line (JSON strings may hold U+2028)."""
    if not text:
        return []
    lines = text.split("\n")
    with_ends = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        with_ends.append(lines[-1])
    return with_ends


# A learning nests two deep (its `source`, its `paths`); json.loads recurses once a level, so a
# line of 1,000 `[` would end the whole read with a RecursionError. Deeper lines are refused first.
MAX_NESTING = 32
# A JSON string (its escapes included; unclosed, to the end), and anything but a bracket.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting(content: str) -> int:
    """How deep the JSON on the line nests (brackets inside strings do not count), in one pass."""
    if content.count("[") + content.count("{") <= MAX_NESTING:
        return MAX_NESTING  # at most that deep, without looking further
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", content))
    return max(itertools.accumulate(map(_DEPTH.__getitem__, brackets)), default=0)


def _parse_line(content: str) -> Learning | str:
    """The learning on one line, or why the line is skipped."""
    if nesting(content) > MAX_NESTING:
        return "nested too deeply"
    try:
        return _parse_json_line(content)
    except RecursionError:  # a caller's stack already deep: still the line's fault, not the run's
        return "nested too deeply"


def _parse_json_line(content: str) -> Learning | str:
    try:
        raw: Any = json.loads(content)
    except ValueError:
        return "not valid JSON"
    if not isinstance(raw, dict):
        return "not a JSON object"
    if "v" not in raw:
        return "no version `v`"
    if type(raw["v"]) is not int or raw["v"] != VERSION:
        return f"unknown version `v` = {json.dumps(raw['v'])[:20]}"
    try:
        return Learning.model_validate_json(content)
    except ValidationError as error:
        return f"not a valid learning: {validation_problem(error)}"


def as_written(learning: Learning) -> Learning:
    """The learning as its line reads back: validated again from its JSON (a model_copy is not
    validated, and the line keeps its times to the second). For learnings/store/edit.py."""
    return Learning.model_validate_json(learning.model_dump_json())


def _entries(text: str) -> list[tuple[str, Learning | str | None]]:
    """Each line with what it holds: a learning, why it is skipped, or None when it is blank."""
    entries: list[tuple[str, Learning | str | None]] = []
    seen: set[str] = set()
    for line in _lines(text):
        content = line.rstrip("\n").rstrip("\r")
        if not content.strip():
            entries.append((line, None))
            continue
        parsed = _parse_line(content)
        if isinstance(parsed, Learning):
            if parsed.id in seen:
                parsed = f"id `{parsed.id}` already used above"
            else:
                seen.add(parsed.id)
        entries.append((line, parsed))
    return entries


def parse_jsonl(text: str, *, source: str) -> LoadedLearnings:
    """The learnings of a store's text; `source` names it in warnings (`file:4: ..., skipped`)."""
    learnings: list[Learning] = []
    warnings: list[str] = []
    for number, (_line, parsed) in enumerate(_entries(text), start=1):
        if isinstance(parsed, Learning):
            learnings.append(parsed)
        elif parsed is not None:
            warnings.append(f"{source}:{number}: {parsed}, skipped")
    return LoadedLearnings(learnings=tuple(learnings), warnings=tuple(warnings))


def to_line(learning: Learning) -> str:
    """One learning as a line of the store (without its line feed), keys in the documented order."""
    data = learning.model_dump(mode="json")
    data["paths"] = list(learning.paths)
    data["source"] = learning.source.model_dump(mode="json", exclude_none=True)
    return json.dumps(data, ensure_ascii=False)


def to_jsonl(learnings: Sequence[Learning]) -> str:
    """A whole store's text."""
    return "".join(to_line(learning) + "\n" for learning in learnings)


def updated_text(original: str, learnings: Sequence[Learning]) -> str:
    """The store's text after an edit: changed learnings replaced in place, new ones appended.

    A line whose learning did not change, a skipped line and a blank line stay byte for byte; a
    learning of the original missing from `learnings` keeps its line (nothing is ever erased).
    """
    wanted = {learning.id: learning for learning in learnings}
    placed: set[str] = set()
    out: list[str] = []
    for line, parsed in _entries(original):
        if isinstance(parsed, Learning) and parsed.id in wanted:
            placed.add(parsed.id)
            new = wanted[parsed.id]
            if new != parsed:
                ending = line[len(line.rstrip("\r\n")) :]
                line = to_line(new) + ending  # noqa: PLW2901 - the replacement line
        out.append(line)
    added = [to_line(learning) + "\n" for learning in learnings if learning.id not in placed]
    if added and out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    return "".join(out + added)
