"""The assistant's findings as its comments mark them, so `ignore-rule <fingerprint>` can name one.

The review engine marks each finding it posts with `<!-- assistant:finding {"v": 1, "category":
"...", "path": "...", "line": 12, "title": "..."} -->` (one marker per finding; a comment may hold
several). A fingerprint (learnings.suppression.fingerprint) is a hash and cannot be reversed, so an
`ignore-rule` command is resolved against the findings marked in the assistant's comments of the
same issue or pull request. Only the assistant's comments count (the caller checks the author).
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, ValidationError

from assistant.markers import json_payload, marker, payloads
from learnings.suppression import Finding

NAME = "finding"


class _Marker(Finding):
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)

    v: Literal[1]


def findings_in(body: str) -> tuple[list[Finding], int]:
    """The findings marked in a comment body, and how many markers did not parse."""
    found: list[Finding] = []
    bad = 0
    for payload in payloads(body, NAME):
        try:
            parsed = _Marker.model_validate_json(payload)
        except ValidationError:
            bad += 1
            continue
        found.append(
            Finding(category=parsed.category, path=parsed.path, line=parsed.line, title=parsed.title)
        )
    return found, bad


def finding_marker(finding: Finding) -> str:
    """The hidden marker of a finding, as the review engine writes it."""
    return marker(NAME, json_payload({"v": 1, **finding.model_dump(exclude_defaults=True)}))
