"""The analysis marker's one writer: the line `<!-- assistant:analysis {JSON} -->` that ends an
analysis comment (`corrections marker`), as corrections/rules/markers.py reads it; and its receipt, the
optional `"context"` (what the model was given), whose one schema (`parse_receipt`) both the
writer and the reader check.

Apart from the reader so that `corrections marker` starts without pydantic (the reader's model):
it answers in a fraction of the time.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from assistant.config_keys import KEYS
from assistant.markers import json_payload, marker

ANALYSIS = "analysis"
AnalysisKind = Literal["first", "follow-up"]
# Control characters and line or paragraph separators: never part of a label name.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


# A receipt holds at most the widest window's corrections and the largest learnings block.
MAX_RECEIPT_CORRECTIONS = KEYS["context"]["max_analyzed"].high or 100
MAX_RECEIPT_LEARNINGS = KEYS["learnings"]["max_prompt_entries"].high or 200
_MAX_ID_CHARS = 64


class MarkerError(ValueError):
    """An analysis marker that does not parse; the message names the comment."""


@dataclass(frozen=True)
class Receipt:
    """What the model of one analysis was given: the issues whose correction lines were in its
    prompt (corrections.md's order) and the ids of the learnings of its learnings block."""

    corrections: tuple[int, ...] = ()
    learnings: tuple[str, ...] = ()

    def payload(self) -> dict[str, list[int] | list[str]]:
        """The marker's `"context"` value."""
        return {"corrections": list(self.corrections), "learnings": list(self.learnings)}


def parse_receipt(value: object) -> Receipt:
    """The receipt of a marker's `"context"` value (parsed JSON); raises MarkerError saying why not.

    Both lists may be empty or absent; each is bounded (a window of at most
    MAX_RECEIPT_CORRECTIONS issues, a block of at most MAX_RECEIPT_LEARNINGS learnings).
    """
    if not isinstance(value, dict):
        raise MarkerError("context: expected an object")
    numbers = value.get("corrections", [])
    ids = value.get("learnings", [])
    if not isinstance(numbers, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in numbers
    ):
        raise MarkerError("context.corrections: expected a list of positive issue numbers")
    if not isinstance(ids, list) or not all(
        isinstance(i, str)
        and 0 < len(i) <= _MAX_ID_CHARS
        and i.isascii()
        and i.isprintable()
        and " " not in i
        for i in ids
    ):
        raise MarkerError("context.learnings: expected a list of learning ids")
    if len(numbers) > MAX_RECEIPT_CORRECTIONS:
        raise MarkerError(
            f"context.corrections: {len(numbers)} issues, more than the widest window "
            f"({MAX_RECEIPT_CORRECTIONS})"
        )
    if len(ids) > MAX_RECEIPT_LEARNINGS:
        raise MarkerError(
            f"context.learnings: {len(ids)} learnings, more than the largest learnings block "
            f"({MAX_RECEIPT_LEARNINGS})"
        )
    return Receipt(tuple(dict.fromkeys(numbers)), tuple(dict.fromkeys(ids)))


def folder_receipt(folder: Path) -> Receipt:
    """The receipt of a context folder `corrections read` wrote: the issues of corrections.json's
    correction lines and the ids of learnings.md's learnings (corrections.json's `learnings`).

    Raises MarkerError naming the file when corrections.json is missing or not in that shape.
    """
    path = folder / "corrections.json"
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise MarkerError(f"{path}: not found; write the folder with `corrections read` first") from error
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise MarkerError(f"{path}: cannot be read as JSON: {error}") from error
    corrections = document.get("corrections") if isinstance(document, dict) else None
    if not isinstance(corrections, list) or not all(
        isinstance(c, dict) and "number" in c for c in corrections
    ):
        raise MarkerError(f"{path}: `corrections` is not a list of corrections")
    try:
        return parse_receipt(
            {"corrections": [c["number"] for c in corrections], "learnings": document.get("learnings") or []}
        )
    except MarkerError as error:
        raise MarkerError(f"{path}: {error}") from error


def analysis_marker(
    labels: Iterable[str],
    duplicate_of: int | None = None,
    kind: AnalysisKind = "first",
    context: Receipt | None = None,
) -> str:
    """The hidden marker line that ends an analysis comment, as `parse_analysis` reads it.

    `context`: the receipt (what the model was given), written as `"context"`; none is written
    when it is None.

    `<` and `>` in label names are JSON escapes in the payload (assistant.markers.json_payload),
    so no name can end the HTML comment early. Raises MarkerError for a label that is empty, has
    white space at either end or holds a control character or line break, and for a
    `duplicate_of` that is not a positive issue number.
    """
    names = list(labels)
    for name in names:
        _check_label(name)
    if kind not in ("first", "follow-up"):
        raise MarkerError(f"kind: expected 'first' or 'follow-up', got {kind!r}")
    if duplicate_of is not None and (
        isinstance(duplicate_of, bool) or not isinstance(duplicate_of, int) or duplicate_of <= 0
    ):
        raise MarkerError(f"duplicate_of: expected a positive issue number, got {duplicate_of!r}")
    payload: dict[str, object] = {"v": 1, "kind": kind, "labels": names, "duplicate_of": duplicate_of}
    if context is not None:
        payload["context"] = parse_receipt(context.payload()).payload()  # the reader's own check
    return marker(ANALYSIS, json_payload(payload))


def _check_label(name: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise MarkerError(f"label {name!r}: a label name cannot be empty")
    if name != name.strip():
        raise MarkerError(f"label {name!r}: a label name cannot start or end with white space")
    for char in name:
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
            raise MarkerError(
                f"label {name!r}: a label name cannot hold a control character or line break "
                f"(U+{ord(char):04X})"
            )
