"""Suppressions: findings the team marked as false positives are not posted again.

A finding is identified by its fingerprint, a short stable hash of its category and path, which is
what `/assistant ignore-rule <fingerprint>` names. The suppression recorded for it is a learning of
kind "suppression" with the finding's category and its path as an exact glob; it matches a later
finding with the same category and a path that one of its globs matches (a suppression written by
hand may use a wider glob such as `vendor/**`).

The review engine marks each finding it posts with `<!-- assistant:finding {"v": 1, "category":
"...", "path": "...", "line": 12, "title": "..."} -->` (one marker per finding; a comment may hold
several). A fingerprint is a hash and cannot be reversed, so an `ignore-rule` command is resolved
against the findings marked in the assistant's comments of the same issue or pull request. Only the
assistant's comments count (the caller checks the author).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from assistant.markers import Marker, json_payload, marker, payloads
from learnings.rules.globs import escape_glob, parse_glob
from learnings.rules.model import Category, Learning, Source
from learnings.store.edit import add

FINDING_MARKER = "finding"


def fingerprint(category: str, path: str) -> str:
    """A stable 12-character hex hash of a finding's category and path.

    Fingerprints are posted in comments and typed back in `ignore-rule` commands: changing this
    function breaks every fingerprint already posted.
    """
    key = json.dumps([category, path], ensure_ascii=False)
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]


class Finding(BaseModel):
    """A finding the review engine would post: what kind it is and where."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    category: Category
    path: Annotated[str, Field(min_length=1)]
    line: Annotated[int, Field(gt=0)] | None = None
    title: str = ""

    @property
    def fingerprint(self) -> str:
        """The fingerprint of its category and path."""
        return fingerprint(self.category, self.path)


def is_suppressed(finding: Finding, learnings: Iterable[Learning]) -> bool:
    """Whether an active suppression of the finding's category has a glob matching its path."""
    return any(
        learning.active
        and learning.kind == "suppression"
        and learning.category == finding.category
        and any(parse_glob(text).matches(finding.path) for text in learning.paths)
        for learning in learnings
    )


def postable(findings: Iterable[Finding], learnings: Sequence[Learning]) -> list[Finding]:
    """The findings that no suppression stops, in their order."""
    return [finding for finding in findings if not is_suppressed(finding, learnings)]


def suppress(
    existing: Sequence[Learning], finding: Finding, now: datetime, *, source: Source | None = None
) -> tuple[list[Learning], Learning]:
    """The store with a suppression of the finding's category on its path.

    One suppression per fingerprint, so each keeps its own source; suppressing the same finding
    again updates that one.
    """
    text = f"ignore-rule {finding.fingerprint}: {finding.category} on {finding.path} is a false positive"
    return add(
        existing,
        text,
        [escape_glob(finding.path)],
        finding.category,
        now,
        kind="suppression",
        source=source,
    )


class _FindingMarker(Finding):
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)

    v: Literal[1]


def findings_in(body: str, markers: Sequence[Marker] | None = None) -> tuple[list[Finding], int]:
    """The findings marked in a comment body, and how many markers did not parse; with `markers`,
    only those (the ones assistant.markers.counted says count)."""
    found: list[Finding] = []
    bad = 0
    chosen = payloads(body, FINDING_MARKER) if markers is None else [m.payload for m in markers]
    for payload in chosen:
        try:
            parsed = _FindingMarker.model_validate_json(payload)
        except ValidationError:
            bad += 1
            continue
        found.append(
            Finding(category=parsed.category, path=parsed.path, line=parsed.line, title=parsed.title)
        )
    return found, bad


def finding_marker(finding: Finding) -> str:
    """The hidden marker of a finding, as the review engine writes it."""
    return marker(FINDING_MARKER, json_payload({"v": 1, **finding.model_dump(exclude_defaults=True)}))
