"""The analysis marker `<!-- assistant:analysis {JSON} -->` in the assistant's comments: its
reader (`parse_analysis`); its one writer is corrections/marker_line.py (`corrections marker`).

A marker counts only in a comment whose author is the assistant (assistant.identity, checked
before the body is parsed): anyone can type one. Markers are found by assistant.markers, the one
linear parser.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from assistant.identity import Identity, is_assistant
from assistant.markers import payloads
from corrections import marker_line
from corrections.models import Analysis, Comment

ANALYSIS = marker_line.ANALYSIS
AnalysisKind = marker_line.AnalysisKind
MarkerError = marker_line.MarkerError  # defined beside the writer, which needs no pydantic
Receipt = marker_line.Receipt


class _Marker(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True, defer_build=True)

    v: Literal[1]
    kind: AnalysisKind
    labels: list[Annotated[str, Field(min_length=1)]] = []
    duplicate_of: Annotated[int, Field(gt=0)] | None = None
    # The receipt, checked by the writer's own schema (marker_line.parse_receipt): one that does
    # not parse leaves the analysis valid, without a receipt.
    context: Any = None


def parse_analysis(
    comment: Comment, index: int, assistant: Identity, warnings: list[str] | None = None
) -> Analysis | None:
    """The analysis in an assistant's comment, None when there is none.

    Raises MarkerError when the assistant's comment has a marker that does not parse. A receipt
    that does not parse (or holds more than a window and a learnings block) is left out, with a
    warning in `warnings` naming the comment: its context is then reconstructed.
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
    receipt: Receipt | None = None
    if marker.context is not None:
        try:
            receipt = marker_line.parse_receipt(marker.context)
        except MarkerError as error:
            if warnings is not None:
                warnings.append(f"{name}: the analysis's receipt is left out ({error})")
    return Analysis(
        index=index,
        node_id=comment.node_id,
        database_id=comment.database_id,
        at=comment.at,
        kind=marker.kind,
        labels=tuple(marker.labels),
        duplicate_of=marker.duplicate_of,
        receipt=receipt,
    )
