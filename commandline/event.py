"""The workflow's event payload (`$GITHUB_EVENT_PATH`): its one decoder, for the action's step
(which event started it) and `corrections prompt --event FILE` (the new issue's text).

The standard library only: the step reads the event before its first request leaves.
"""

from __future__ import annotations

import json
from pathlib import Path


class EventError(ValueError):
    """An event payload that cannot be read; the message names the file."""


def read_event_payload(path: Path) -> object:
    """The parsed JSON of the event payload at `path` (any JSON value: the caller checks its shape).

    Raises EventError naming the file when it is missing, unreadable or not JSON.
    """
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise EventError(f"{path}: not found") from error
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise EventError(f"{path}: not a JSON event payload: {error}") from error
