"""Suppressions: findings the team marked as false positives are not posted again.

A finding is identified by its fingerprint, a short stable hash of its category and path, which is
what `/assistant ignore-rule <fingerprint>` names. The suppression recorded for it is a learning of
kind "suppression" with the finding's category and its path as an exact glob; it matches a later
finding with the same category and a path that one of its globs matches (a suppression written by
hand may use a wider glob such as `vendor/**`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from learnings.edit import add
from learnings.globs import escape_glob, parse_glob
from learnings.model import Category, Learning, Source


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
