"""PR memory: the assistant's rolling snapshot of one pull request, so follow-up runs do not start cold.

The snapshot (intent, affected areas, risks, review progress, addressed findings) lives in the
hidden marker `<!-- assistant:pr-memory {base64 of JSON} -->` of the assistant's own comment on that
pull request. It is read back only from the assistant's comments on the same pull request: a marker
in anyone else's comment is ignored (anyone can type one), and so is a snapshot that names another
pull request. A marker that does not decode is ignored with a warning naming the comment, and an
older one of the assistant's markers is used instead. Pure functions; the round trips are in
learnings.sync.memory_comment.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, field_serializer

from assistant.identity import Identity, is_assistant
from assistant.markers import NO_KEY, counted, marker, payloads, replace_marker
from assistant.templating import markdown_environment
from assistant.untrusted import clean_line, fence_for, json_text, truncate
from assistant.validation import validation_problem
from learnings.rules.model import utc_text
from queries.sync_models import ThreadComment

NAME = "pr-memory"
MAX_MARKER_CHARS = 60_000  # a comment body holds at most 65,536 characters
MAX_TEXT_CHARS = 1_000
Fingerprint = Annotated[str, Field(pattern=r"^[0-9a-f]{12}$")]
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
_ENVIRONMENT = markdown_environment(TEMPLATES, trim_blocks=True)
COMMENT_TEXT = (
    "The assistant keeps its memory of this pull request in this comment (hidden), "
    "so that its next run here does not start from scratch. It is updated on every run."
)


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class AddressedFinding(_Frozen):
    """A finding of an earlier run that was dealt with, and how (`fixed in 3f2c1aa`, `dismissed`)."""

    fingerprint: Fingerprint
    how: str = ""


class ReviewProgress(_Frozen):
    """How far the review went: the last commit reviewed, how many runs, what was read."""

    reviewed_commit: Annotated[str, Field(pattern=r"^[0-9a-f]{7,40}$")] | None = None
    runs: Annotated[int, Field(ge=0)] = 0
    files_reviewed: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()


class PrMemory(_Frozen):
    """The snapshot of one pull request."""

    v: Literal[1] = 1
    pull_request: Annotated[int, Field(gt=0)]
    intent: str = ""
    areas: tuple[str, ...] = ()
    risks: tuple[str, ...] = ()
    progress: ReviewProgress = ReviewProgress()
    addressed: tuple[AddressedFinding, ...] = ()
    updated_at: AwareDatetime

    @field_serializer("updated_at")
    def _utc(self, moment: datetime) -> str:
        return utc_text(moment)


class MemoryMarkerError(ValueError):
    """A memory that cannot be encoded or decoded; the message is one line in fixed words."""


def encode(memory: PrMemory, key: str | None = None) -> str:
    """The hidden marker holding the snapshot, sealed for its pull request with `key` if given.

    Raises MemoryMarkerError when it would not fit in a comment.
    """
    data = base64.b64encode(memory.model_dump_json().encode("utf-8")).decode("ascii")
    if len(data) > MAX_MARKER_CHARS:
        raise MemoryMarkerError(f"the PR memory takes {len(data)} characters; at most {MAX_MARKER_CHARS} fit")
    return marker(NAME, data, number=memory.pull_request, key=key)


class MemoryFileError(ValueError):
    """A snapshot file (`learnings memory --set FILE`) that is not a PR memory; the message says why."""


def read_file_memory(text: str, number: int) -> PrMemory:
    """The snapshot a maintainer wrote in a JSON file for pull request `number`: `pull_request`
    defaults to `number` (another is refused), `updated_at` to now. The file's one decoder, beside
    the marker's (`decode`); raises MemoryFileError saying why the text is not one."""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise MemoryFileError(f"not a JSON file: {error}") from error
    if not isinstance(raw, dict):
        raise MemoryFileError("expected a JSON object")
    if raw.setdefault("pull_request", number) != number:
        raise MemoryFileError(f"the memory is of pull request #{raw['pull_request']}, not #{number}")
    raw.setdefault("updated_at", now_utc().isoformat())
    try:
        return PrMemory.model_validate_json(json.dumps(raw))
    except ValidationError as error:
        raise MemoryFileError(validation_problem(error)) from error


def decode(payload: str) -> PrMemory:
    """The snapshot in a marker's payload. Raises MemoryMarkerError when it does not decode."""
    try:
        raw = base64.b64decode(payload.strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError) as error:
        raise MemoryMarkerError("not base64 of UTF-8 text") from error
    try:
        return PrMemory.model_validate_json(raw)
    except ValidationError as error:
        first = error.errors()[0] if error.errors() else None
        where = ".".join(str(part) for part in first["loc"]) if first else ""
        raise MemoryMarkerError(f"not a valid PR memory (at `{where}`)") from error


@dataclass(frozen=True)
class FoundMemory:
    """What a pull request's comments hold: the snapshot, the comment to write to, and warnings."""

    memory: PrMemory | None
    comment_id: str | None  # node id of the assistant's newest comment with a marker
    comment_body: str | None
    warnings: tuple[str, ...]
    # The assistant's account is shared and the marker key is not set: memory is off (NO_KEY).
    off: bool = False


def find_memory(comments: Sequence[ThreadComment], number: int, assistant: Identity) -> FoundMemory:
    """The newest snapshot of pull request `number` in the assistant's comments (oldest first given).

    The author is checked before a payload is decoded: a memory in anyone else's comment is never
    read, whatever it holds (a marker there, found by the one parser, assistant.markers, only draws
    a warning).
    """
    memory: PrMemory | None = None
    target: ThreadComment | None = None
    warnings: list[str] = []
    for comment in reversed(comments):
        name = f"comment {comment.database_id}"
        author = comment.author
        if not is_assistant(author, assistant):
            if payloads(comment.body, NAME):
                who = f"@{author.login}" if author is not None else "a deleted account"
                warnings.append(f"{name}: PR memory marker by {who}, not the assistant; ignored")
            continue
        trusted = counted(comment.body, NAME, number, assistant)
        if trusted.refused not in (None, NO_KEY):
            warnings.append(f"{name}: {trusted.refused}")
        found = [each.payload for each in trusted.markers]
        if not found:
            continue
        if target is None:
            target = comment
        if memory is not None:
            continue
        try:
            decoded = decode(found[0])
        except MemoryMarkerError as error:
            warnings.append(f"{name}: PR memory marker ignored: {error}")
            continue
        if decoded.pull_request != number:
            warnings.append(
                f"{name}: PR memory of pull request #{decoded.pull_request}, not #{number}; ignored"
            )
            continue
        memory = decoded
    off = assistant.is_shared and assistant.marker_key is None
    if off:
        warnings.append(f"PR memory is {NO_KEY}")
    return FoundMemory(
        memory=memory,
        comment_id=target.id if target is not None else None,
        off=off,
        comment_body=target.body if target is not None else None,
        warnings=tuple(warnings),
    )


def comment_body(memory: PrMemory, old_body: str | None, key: str | None = None) -> str:
    """The body of the assistant's memory comment: the old body with its marker replaced, or a new
    one; sealed with `key` when given."""
    new = encode(memory, key)
    if old_body is None:
        return f"{COMMENT_TEXT}\n\n{new}\n"
    return replace_marker(old_body, NAME, new)


def _text(value: str) -> str:
    return json_text(truncate(clean_line(value), MAX_TEXT_CHARS))


def _list(values: Sequence[str]) -> str:
    return "[" + ", ".join(_text(value) for value in values) + "]"


def render_memory(memory: PrMemory | None, number: int) -> str:
    """The prompt block of a pull request's memory (a fixed text when there is none)."""
    lines: list[str] = []
    if memory is not None:
        progress = memory.progress
        lines = [
            f"intent: {_text(memory.intent)}",
            f"affected areas: {_list(memory.areas)}",
            f"risks: {_list(memory.risks)}",
            f"runs so far: {progress.runs}",
            f"last reviewed commit: {progress.reviewed_commit or 'none'}",
            f"files reviewed: {_list(progress.files_reviewed)}",
            f"still to review: {_list(progress.pending)}",
            "addressed findings:" + ("" if memory.addressed else " none"),
            *(f"- {item.fingerprint}: {_text(item.how)}" for item in memory.addressed),
        ]
    text = _ENVIRONMENT.get_template("pr_memory.md.j2").render(
        memory=memory,
        number=number,
        updated=utc_text(memory.updated_at) if memory is not None else "",
        lines=lines,
        fence=fence_for(lines),
    )
    return text.rstrip("\n") + "\n"


def now_utc() -> datetime:
    """The time a snapshot is written, to the second."""
    return datetime.now(UTC).replace(microsecond=0)
