"""Opaque global node ids and pagination cursors, stable for a given world.

GitHub's ids look like ``I_kwDOAbc123``: a type prefix and an opaque tail. Ours are a prefix
and base64 of a readable key, so they are stable across runs and decodable by ``node(id)``.
"""

from __future__ import annotations

import base64
import binascii

PREFIXES = {
    "Repository": "R_",
    "Issue": "I_",
    "PullRequest": "PR_",
    "IssueComment": "IC_",
    "PullRequestReview": "PRR_",
    "PullRequestReviewComment": "PRRC_",
    "PullRequestReviewThread": "PRRT_",
    "User": "U_",
    "Bot": "BOT_",
    "Mannequin": "MQ_",
    "Organization": "O_",
    "Label": "LA_",
    "Reaction": "REA_",
    "Ref": "REF_",
    "Commit": "C_",
    "Blob": "B_",
    "Tree": "T_",
    "LabeledEvent": "LE_",
    "UnlabeledEvent": "UNLE_",
    "ClosedEvent": "CE_",
    "ReopenedEvent": "REE_",
    "MarkedAsDuplicateEvent": "MADE_",
    "UnmarkedAsDuplicateEvent": "UMADE_",
}
TYPES = {prefix: typename for typename, prefix in PREFIXES.items()}
# The GraphQL type of each world timeline event (its REST ``node_id`` uses the same).
EVENT_TYPENAMES = {
    "labeled": "LabeledEvent",
    "unlabeled": "UnlabeledEvent",
    "closed": "ClosedEvent",
    "reopened": "ReopenedEvent",
    "marked_as_duplicate": "MarkedAsDuplicateEvent",
    "unmarked_as_duplicate": "UnmarkedAsDuplicateEvent",
}


def _b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _unb64(text: str) -> str | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def node_id(typename: str, key: str) -> str:
    """The global id of the ``typename`` object whose world key is ``key``."""
    return PREFIXES[typename] + _b64(key)


def parse_node_id(value: str) -> tuple[str, str] | None:
    """``(typename, key)`` of a global id, or None when it is not one of ours."""
    prefix, sep, tail = value.partition("_")
    typename = TYPES.get(prefix + sep)
    if typename is None:
        return None
    key = _unb64(tail)
    return None if key is None else (typename, key)


def cursor(key: str) -> str:
    """An opaque cursor for a position key."""
    return base64.b64encode(f"cursor:v2:{key}".encode()).decode()


def parse_cursor(value: str) -> str | None:
    """The position key of a cursor, or None when it is not one."""
    try:
        text = base64.b64decode(value, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return text.removeprefix("cursor:v2:") if text.startswith("cursor:v2:") else None
