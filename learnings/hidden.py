"""Hidden markers in comments, `<!-- assistant:NAME PAYLOAD -->`: found and written.

A payload is JSON with `<` and `>` escaped (or base64), so no text inside it can end the HTML
comment early or open another one. Whose comment a marker may come from is the caller's rule.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any


@cache
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"<!--\s*assistant:{re.escape(name)}\s+(.*?)\s*-->", re.DOTALL)


def payloads(body: str, name: str) -> list[str]:
    """The payload of every `assistant:NAME` marker in a body, in order."""
    return [match.group(1) for match in _pattern(name).finditer(body)]


def json_payload(data: Any) -> str:
    """JSON on one line that cannot close an HTML comment."""
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    return text.replace("<", "\\u003c").replace(">", "\\u003e")


def marker(name: str, payload: str) -> str:
    """The hidden marker `<!-- assistant:NAME PAYLOAD -->`."""
    return f"<!-- assistant:{name} {payload} -->"


def replace_marker(body: str, name: str, new: str) -> str:
    """The body with its first `assistant:NAME` marker replaced by `new` (appended when it has none)."""
    pattern = _pattern(name)
    if pattern.search(body) is None:
        return f"{body.rstrip()}\n\n{new}\n" if body.strip() else f"{new}\n"
    return pattern.sub(lambda _match: new, body, count=1)
