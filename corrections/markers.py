"""Hidden markers in comments: `<!-- assistant:analysis {JSON} -->`, who may write them, and
the one writer of that marker (`analysis_marker`, the `corrections marker` command).

A marker counts only in a comment whose author is the assistant: anyone can type one.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from corrections.models import Actor, Analysis, Comment

# The marker's start; its end is the first `-->` after it. Searched in two steps, not as one
# lazy pattern: that pattern backtracks over every unclosed start, quadratic in the body's size.
_ANALYSIS_START = re.compile(r"<!--\s*assistant:analysis\s+")
_MARKER_END = "-->"
_MARKER_START = "<!-- assistant:analysis "
_BOT_SUFFIX = "[bot]"


def normalize_login(login: str) -> str:
    """A login as compared: without REST's `[bot]` suffix, case-folded."""
    login = login.strip()
    if login.lower().endswith(_BOT_SUFFIX):
        login = login[: -len(_BOT_SUFFIX)]
    return login.casefold()


def is_assistant(actor: Actor | None, assistant_login: str) -> bool:
    """Whether an actor is the configured assistant (GraphQL drops the `[bot]` suffix).

    A bot and a user may share a login (the app's `name[bot]` and the user `name`): when the
    configured login names the bot, a User of that login is someone else and never the assistant.
    """
    if actor is None or normalize_login(actor.login) != normalize_login(assistant_login):
        return False
    return actor.typename == "Bot" or not assistant_login.strip().lower().endswith(_BOT_SUFFIX)


def is_person(actor: Actor | None, assistant_login: str) -> bool:
    """A User who is not the assistant; bots, apps, mannequins and ghosts (null) are not people."""
    return actor is not None and actor.typename == "User" and not is_assistant(actor, assistant_login)


class _Marker(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)

    v: Literal[1]
    kind: Literal["first", "follow-up"]
    labels: list[Annotated[str, Field(min_length=1)]] = []
    duplicate_of: Annotated[int, Field(gt=0)] | None = None


def _marker_payload(body: str) -> str | None:
    """The text between the first analysis marker's start and its `-->`, or None."""
    start = _ANALYSIS_START.search(body)
    if start is None:
        return None
    end = body.find(_MARKER_END, start.end())
    # Without an end after the first start, no later start has one either.
    return None if end == -1 else body[start.end() : end].rstrip()


class MarkerError(ValueError):
    """An analysis marker that does not parse; the message names the comment."""


def parse_analysis(comment: Comment, index: int, assistant_login: str) -> Analysis | None:
    """The analysis in an assistant's comment, None when there is none.

    Raises MarkerError when the assistant's comment has a marker that does not parse.
    """
    if not is_assistant(comment.author, assistant_login):
        return None
    payload = _marker_payload(comment.body)
    if payload is None:
        return None
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


# Characters that end an HTML comment or start markup (`-->`, `--!>`), escaped inside the JSON
# strings so that no label name can close the marker early, in this reader or in a browser.
_HTML_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}
# Control characters and line or paragraph separators: never part of a label name.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})
AnalysisKind = Literal["first", "follow-up"]


def analysis_marker(
    labels: Iterable[str], duplicate_of: int | None = None, kind: AnalysisKind = "first"
) -> str:
    """The hidden marker line that ends an analysis comment, as `parse_analysis` reads it.

    Raises MarkerError for a label that is empty, has white space at either end or holds a
    control character or line break, and for a `duplicate_of` that is not a positive issue number.
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
    payload = json.dumps(
        {"v": 1, "kind": kind, "labels": names, "duplicate_of": duplicate_of}, ensure_ascii=False
    )
    for char, escape in _HTML_ESCAPES.items():
        payload = payload.replace(char, escape)  # only inside strings: the keys hold none of them
    return f"{_MARKER_START}{payload} {_MARKER_END}"


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
