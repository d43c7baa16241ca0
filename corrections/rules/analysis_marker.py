"""The analysis marker's one schema and its one writer: the line `<!-- assistant:analysis {JSON} -->`
that ends an analysis comment (`corrections marker`), and the check of its JSON (`read_payload`)
that the writer runs on what it writes and corrections/rules/markers.py on what it reads; with its
receipt, the optional `"context"` (what the model was given).

Plain Python, apart from the reader (which needs the models): `corrections marker` writes a
marker without loading pydantic.
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
KINDS: tuple[AnalysisKind, ...] = ("first", "follow-up")
VERSION = 1  # the payload's "v": a reader refuses a payload of another version
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


@dataclass(frozen=True)
class MarkerPayload:
    """What an analysis marker says: the JSON `{"v": 1, "kind", "labels", "duplicate_of"}` and,
    when written with one, `"context"` (the receipt)."""

    kind: AnalysisKind = "first"
    labels: tuple[str, ...] = ()
    duplicate_of: int | None = None
    context: Receipt | None = None

    def json_value(self) -> dict[str, object]:
        """The payload as JSON values, in the order the marker writes them."""
        value: dict[str, object] = {
            "v": VERSION,
            "kind": self.kind,
            "labels": list(self.labels),
            "duplicate_of": self.duplicate_of,
        }
        if self.context is not None:
            value["context"] = self.context.payload()
        return value


def _positive(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def read_payload(value: object) -> tuple[MarkerPayload, MarkerError | None]:
    """The payload of a marker's parsed JSON, and why its receipt was left out (None: it was not).

    Raises MarkerError saying what does not parse: `v` other than 1, a `kind` other than KINDS,
    `labels` that are not a list of non-empty strings, a `duplicate_of` that is not a positive
    issue number or null. Other keys are ignored. A `"context"` that does not parse
    (`parse_receipt`) leaves the payload valid, without a receipt.
    """
    if not isinstance(value, dict):
        raise MarkerError("expected a JSON object")
    version, kind = value.get("v"), value.get("kind")
    if version != VERSION or not isinstance(version, int) or isinstance(version, bool):
        raise MarkerError(f"v: expected {VERSION}, got {version!r}")
    if kind not in KINDS:
        raise MarkerError(f"kind: expected 'first' or 'follow-up', got {kind!r}")
    labels = value.get("labels", [])
    if not isinstance(labels, list) or not all(isinstance(name, str) and name for name in labels):
        raise MarkerError("labels: expected a list of label names")
    duplicate_of = value.get("duplicate_of")
    if duplicate_of is not None and not _positive(duplicate_of):
        raise MarkerError(f"duplicate_of: expected a positive issue number, got {duplicate_of!r}")
    receipt, refused = None, None
    if value.get("context") is not None:
        try:
            receipt = parse_receipt(value["context"])
        except MarkerError as error:
            refused = error
    return MarkerPayload(kind, tuple(labels), duplicate_of, receipt), refused


def analysis_marker(
    labels: Iterable[str],
    duplicate_of: int | None = None,
    kind: AnalysisKind = "first",
    context: Receipt | None = None,
    *,
    number: int | None = None,
    key: str | None = None,
) -> str:
    """The hidden marker line that ends an analysis comment, as markers.parse_analysis reads it;
    sealed for issue `number` with `key` (ASSISTANT_MARKER_KEY) when both are given.

    `context`: the receipt (what the model was given), written as `"context"`; none is written
    when it is None.

    `<` and `>` in label names are JSON escapes in the payload (assistant.markers.json_payload),
    so no name can end the HTML comment early. Raises MarkerError for a label that is empty, has
    white space at either end or holds a control character or line break, and for anything the
    reader would refuse (`read_payload`: a `duplicate_of` that is not a positive issue number, a
    kind other than KINDS, a receipt that does not parse).
    """
    names = list(labels)
    for name in names:
        _check_label(name)
    # The reader's own check; what is written is what it reads back (a receipt without repeats).
    payload, refused = read_payload(MarkerPayload(kind, tuple(names), duplicate_of, context).json_value())
    if refused is not None:
        raise refused
    return marker(ANALYSIS, json_payload(payload.json_value()), number=number, key=key)


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
