"""The analysis marker's one writer: the line `<!-- assistant:analysis {JSON} -->` that ends an
analysis comment (`corrections marker`), as corrections/markers.py reads it.

Apart from the reader so that `corrections marker` starts without pydantic (the reader's model):
it answers in a fraction of the time.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Literal

from assistant.markers import json_payload, marker

ANALYSIS = "analysis"
AnalysisKind = Literal["first", "follow-up"]
# Control characters and line or paragraph separators: never part of a label name.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


class MarkerError(ValueError):
    """An analysis marker that does not parse; the message names the comment."""


def analysis_marker(
    labels: Iterable[str], duplicate_of: int | None = None, kind: AnalysisKind = "first"
) -> str:
    """The hidden marker line that ends an analysis comment, as `parse_analysis` reads it.

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
    payload = {"v": 1, "kind": kind, "labels": names, "duplicate_of": duplicate_of}
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
