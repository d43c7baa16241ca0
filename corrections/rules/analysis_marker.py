"""The analysis marker's one schema and its one writer: the line `<!-- assistant:analysis {JSON} -->`
that ends an analysis comment (`corrections marker`), and the check of its JSON (`read_payload`)
that the writer runs on what it writes and corrections/rules/markers.py on what it reads; with its
receipt, the optional `"context"` (what the model was given), and the optional `"second_look"`
(what `corrections answer`'s second look left out of the model's draft, and why:
corrections/rules/second_look.py).

Plain Python, apart from the reader (which needs the models): `corrections marker` writes a
marker without loading pydantic.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
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
# What the second look can leave out: one duplicate notice, and labels of labels.md.
MAX_LEFT_OUT = 1 + MAX_RECEIPT_CORRECTIONS
_MAX_WHY_CHARS = 40


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


@dataclass(frozen=True)
class LeftOut:
    """One thing the second look left out of the model's draft: the duplicate notice naming
    `duplicate_of`, or the label `label`; `why` is the reason's word (second_look.Why), `removed`
    how many of the nearest corrected issues had the label removed (labels only)."""

    why: str
    duplicate_of: int | None = None
    label: str | None = None
    removed: int = 0

    def payload(self) -> dict[str, object]:
        """The value of one entry of the marker's `"second_look"` list."""
        if self.duplicate_of is not None:
            return {"duplicate_of": self.duplicate_of, "why": self.why}
        return {"label": self.label, "why": self.why, "removed": self.removed}


def _why(value: object) -> bool:
    return (
        isinstance(value, str)
        and 0 < len(value) <= _MAX_WHY_CHARS
        and value.isascii()
        and value.replace("_", "").isalpha()
    )


def parse_left_out(value: object) -> tuple[LeftOut, ...]:
    """The marker's `"second_look"` value (parsed JSON); raises MarkerError saying why not.

    A list of at most MAX_LEFT_OUT entries, each `{"duplicate_of": N, "why": W}` or `{"label":
    NAME, "why": W, "removed": K}`; W is one lower-case word (a reason this version does not know
    is kept: a newer writer's).
    """
    if not isinstance(value, list) or len(value) > MAX_LEFT_OUT:
        raise MarkerError(f"second_look: expected a list of at most {MAX_LEFT_OUT} entries")
    found: list[LeftOut] = []
    for entry in value:
        if not isinstance(entry, dict) or not _why(entry.get("why")):
            raise MarkerError("second_look: each entry needs a `why` word")
        why = str(entry["why"])
        if "duplicate_of" in entry and _positive(entry["duplicate_of"]):
            found.append(LeftOut(why, duplicate_of=int(entry["duplicate_of"])))
            continue
        label, removed = entry.get("label"), entry.get("removed", 0)
        if not isinstance(label, str) or _label_problem(label) is not None:
            raise MarkerError("second_look: an entry names neither an issue number nor a label")
        if not (isinstance(removed, int) and not isinstance(removed, bool) and removed >= 0):
            raise MarkerError("second_look: `removed` is not a count")
        found.append(LeftOut(why, label=label, removed=removed))
    return tuple(found)


@dataclass(frozen=True)
class MarkerPayload:
    """What an analysis marker says: the JSON `{"v": 1, "kind", "labels", "duplicate_of"}` and,
    when written with one, `"context"` (the receipt) and `"second_look"` (what it left out)."""

    kind: AnalysisKind = "first"
    labels: tuple[str, ...] = ()
    duplicate_of: int | None = None
    context: Receipt | None = None
    left_out: tuple[LeftOut, ...] = ()

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
        if self.left_out:
            value["second_look"] = [entry.payload() for entry in self.left_out]
        return value


def _positive(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def read_payload(value: object) -> tuple[MarkerPayload, MarkerError | None]:
    """The payload of a marker's parsed JSON, and why its receipt was left out (None: it was not).

    Raises MarkerError saying what does not parse: `v` other than 1, a `kind` other than KINDS,
    `labels` that are not a list of non-empty strings, a `duplicate_of` that is not a positive
    issue number or null. Other keys are ignored. A `"context"` that does not parse
    (`parse_receipt`) leaves the payload valid, without a receipt; a `"second_look"` that does not
    parse (`parse_left_out`), valid, without it (the reason is the one returned when both fail).
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
    left_out: tuple[LeftOut, ...] = ()
    if value.get("second_look") is not None:
        try:
            left_out = parse_left_out(value["second_look"])
        except MarkerError as error:
            refused = refused or error
    return MarkerPayload(kind, tuple(labels), duplicate_of, receipt, left_out), refused


def analysis_marker(
    labels: Iterable[str],
    duplicate_of: int | None = None,
    kind: AnalysisKind = "first",
    context: Receipt | None = None,
    left_out: Iterable[LeftOut] = (),
    *,
    number: int | None = None,
    key: str | None = None,
) -> str:
    """The hidden marker line that ends an analysis comment, as markers.parse_analysis reads it;
    sealed for issue `number` with `key` (ASSISTANT_MARKER_KEY) when both are given.

    `context`: the receipt (what the model was given), written as `"context"`; none is written
    when it is None. `left_out`: what the second look left out, written as `"second_look"` when
    there is any.

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
    written = MarkerPayload(kind, tuple(names), duplicate_of, context, tuple(left_out))
    payload, refused = read_payload(written.json_value())
    if refused is not None:
        raise refused
    return marker(ANALYSIS, json_payload(payload.json_value()), number=number, key=key)


def _label_problem(name: str) -> str | None:
    """Why `name` cannot be a label name in a marker; None when it can."""
    if not isinstance(name, str) or not name.strip():
        return "a label name cannot be empty"
    if name != name.strip():
        return "a label name cannot start or end with white space"
    for char in name:
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
            return f"a label name cannot hold a control character or line break (U+{ord(char):04X})"
    return None


def _check_label(name: str) -> None:
    problem = _label_problem(name)
    if problem is not None:
        raise MarkerError(f"label {name!r}: {problem}")
