"""The analysis marker `<!-- assistant:analysis {JSON} -->` in the assistant's comments: its
reader (`parse_analysis`) and the one decoder of its payload (`decode_payload`). Its schema and its one writer are corrections/rules/analysis_marker.py
(`corrections marker`), which needs no pydantic; this module adds the models and JSON parsing.

A marker counts only in a comment whose author is the assistant (assistant.identity, checked
before the body is parsed): anyone can type one. Markers are found by assistant.markers, the one
linear parser, and count as its `counted` says: the first or the last thing in their comment, and
with a shared account sealed with the marker key or else alone on the comment's last line.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from assistant.identity import Identity, is_assistant
from assistant.markers import counted, placed_markers
from corrections.rules import analysis_marker
from corrections.rules.models import Analysis, Comment

ANALYSIS = analysis_marker.ANALYSIS
AnalysisKind = analysis_marker.AnalysisKind
MarkerError = analysis_marker.MarkerError  # defined beside the schema, which needs no pydantic
Receipt = analysis_marker.Receipt


# pydantic's JSON parser: its messages name the line and the column where a payload stops being
# JSON. What the JSON must say is the writer's schema (analysis_marker.read_payload).
_JSON: TypeAdapter[Any] = TypeAdapter(Any)


def decode_payload(payload: str) -> tuple[analysis_marker.MarkerPayload, MarkerError | None]:
    """The one decoder of an analysis marker's payload (the text between `assistant:analysis` and
    `-->`), for the reader here and the backtest's scorer: the JSON, then the writer's schema
    (analysis_marker.read_payload), with why its receipt was left out. Raises MarkerError saying
    what does not parse (pydantic's words for JSON, with the line and the column)."""
    try:
        value = _JSON.validate_json(payload)
    except ValidationError as error:
        raise MarkerError(error.errors()[0]["msg"] if error.errors() else "invalid") from error
    return analysis_marker.read_payload(value)


def _name(comment: Comment) -> str:
    return f"comment {comment.database_id or comment.node_id}"


def parse_analysis(
    comment: Comment,
    index: int,
    assistant: Identity,
    warnings: list[str] | None = None,
    *,
    number: int = 0,
) -> Analysis | None:
    """The analysis in an assistant's comment on issue `number`, None when there is none.

    Its marker counts only where assistant.markers.counted says (the first or the last thing in
    the comment; with a shared account, sealed for this issue or alone on the last line); one
    anywhere else is ignored, with a warning naming the comment appended to `warnings`. Raises MarkerError when the marker that counts does not parse. A receipt that does
    not parse (or holds more than a window and a learnings block) is left out, with a warning in
    `warnings` naming the comment: its context is then reconstructed.
    """
    if not is_assistant(comment.author, assistant):
        return None
    found = counted(comment.body, ANALYSIS, number, assistant)
    if found.refused is not None and warnings is not None:
        warnings.append(f"{_name(comment)}: {found.refused}")
    if not found.markers:
        return None
    try:
        payload, refused = decode_payload(found.markers[0].payload)
    except MarkerError as error:
        raise MarkerError(f"{_name(comment)}: analysis marker does not parse ({error}); ignored") from error
    if refused is not None and warnings is not None:
        warnings.append(f"{_name(comment)}: the analysis's receipt is left out ({refused})")
    return Analysis(
        index=index,
        node_id=comment.node_id,
        database_id=comment.database_id,
        at=comment.at,
        kind=payload.kind,
        labels=payload.labels,
        duplicate_of=payload.duplicate_of,
        receipt=payload.context,
        left_out=payload.left_out,
    )


def has_analysis_marker(comment: Comment) -> bool:
    """Whether a comment, whoever wrote it, carries an analysis marker where one counts.

    Only to tell a user whose comments hold the markers when none are the configured assistant's
    (the login is probably configured wrong): never to read an analysis.
    """
    counted, _ = placed_markers(comment.body, ANALYSIS)
    return bool(counted)
