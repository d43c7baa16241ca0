"""One learning: the line format of the store (docs/rules.md, "Learnings"; docs/learnings.md), version 1.

Read from JSON text in strict mode (`model_validate_json`), so dates are ISO 8601 strings with a
time zone and numbers are numbers; an unknown key is an error, so a misspelt key is not silently
dropped from a reviewed file.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal, Self

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    field_serializer,
    field_validator,
    model_validator,
)

from learnings.rules.globs import check_globs

VERSION = 1
Login = Annotated[str, Field(pattern=r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$")]
Category = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._:/-]{0,79}$")]
LearningId = Annotated[str, Field(pattern=r"^l_[0-9a-z]{4,40}$")]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


class Source(_Frozen):
    """Where a learning came from: an issue or a pull request, the comment, who accepted it.

    All empty means it was written by hand (for example with `learnings add`); it still reached the
    default branch only through a reviewed pull request.
    """

    issue: Annotated[int, Field(gt=0)] | None = None
    pull_request: Annotated[int, Field(gt=0)] | None = None
    comment: Annotated[int, Field(gt=0)] | None = None
    accepted_by: Login | None = None

    @model_validator(mode="after")
    def _one_thread(self) -> Self:
        if self.issue is not None and self.pull_request is not None:
            raise ValueError("a source names an issue or a pull request, not both")
        return self


class Learning(_Frozen):
    """One line of the store."""

    v: Literal[1]
    id: LearningId
    scope: Literal["repo", "path"]
    kind: Literal["note", "suppression"]
    text: Annotated[str, Field(min_length=1)]
    paths: tuple[str, ...] = ()
    category: Category | None = None
    source: Source = Source()
    createdAt: AwareDatetime  # the file's key
    updatedAt: AwareDatetime  # the file's key
    status: Literal["active", "retired"]

    @field_validator("text")
    @classmethod
    def _visible_text(cls, text: str) -> str:
        if not text.strip():
            raise ValueError("text is blank")
        return text

    @field_validator("createdAt", "updatedAt")
    @classmethod
    def _in_utc(cls, moment: datetime) -> datetime:
        return moment.astimezone(UTC)

    @field_validator("paths")
    @classmethod
    def _good_globs(cls, paths: tuple[str, ...]) -> tuple[str, ...]:
        return check_globs(paths)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.scope == "path" and not self.paths:
            raise ValueError('scope "path" needs at least one path')
        if self.kind == "suppression" and (self.category is None or not self.paths):
            raise ValueError("a suppression needs a category and at least one path")
        return self

    @field_serializer("createdAt", "updatedAt")
    def _utc(self, moment: datetime) -> str:
        return utc_text(moment)

    @property
    def active(self) -> bool:
        """Whether it is in force (not retired)."""
        return self.status == "active"

    @property
    def general(self) -> bool:
        """Whether it applies to the whole repository (it has no paths)."""
        return not self.paths


def utc_text(moment: datetime) -> str:
    """An ISO 8601 UTC time to the second, as the store writes it: `2026-11-29T19:38:05Z`."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
