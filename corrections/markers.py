"""The analysis marker `<!-- assistant:analysis {JSON} -->` in the assistant's comments: its
reader (`parse_analysis`) and its one writer (`analysis_marker`, the `corrections marker` command).

A marker counts only in a comment whose author is the assistant (assistant.identity, checked
before the body is parsed): anyone can type one. Markers are found by assistant.markers, the one
linear parser.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from assistant.identity import Identity, is_assistant
from assistant.markers import json_payload, marker, payloads
from corrections.models import Analysis, Comment

ANALYSIS = "analysis"
AnalysisKind = Literal["first", "follow-up"]
# Control characters and line or paragraph separators: never part of a label name.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


class _Marker(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True, defer_build=True)

    v: Literal[1]
    kind: AnalysisKind
    labels: list[Annotated[str, Field(min_length=1)]] = []
    duplicate_of: Annotated[int, Field(gt=0)] | None = None


class MarkerError(ValueError):
    """An analysis marker that does not parse; the message names the comment."""


def parse_analysis(comment: Comment, index: int, assistant: Identity) -> Analysis | None:
    """The analysis in an assistant's comment, None when there is none.

    Raises MarkerError when the assistant's comment has a marker that does not parse.
    """
    if not is_assistant(comment.author, assistant):
        return None
    found = payloads(comment.body, ANALYSIS)
    if not found:
        return None
    payload = found[0]
    name = f"comment {comment.database_id or comment.node_id}"
    try:
        marker = _Marker.model_validate_json(payload)
    except ValidationError as error:
        reason = error.errors()[0]["msg"] if error.errors() else "invalid"
        raise MarkerError(f"{name}: analysis marker does not parse ({reason}); ignored") from error
    return Analysis(
        index=index,
        node_id=comment.node_id,
        database_id=comment.database_id,
        at=comment.at,
        kind=marker.kind,
        labels=tuple(marker.labels),
        duplicate_of=marker.duplicate_of,
    )


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
