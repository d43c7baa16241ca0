"""The one base of every model of GitHub's answers, and the one way an answer is parsed.

Parsing an answer into a model is the check that it has the shape that was asked for; a
mismatch is a BadResponse, never a crash further down. Fields GitHub adds are ignored.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from queries.errors import BadResponse


class AnswerModel(BaseModel):
    """A part of an answer as its .graphql selection asks for it (camelCase aliases allowed)."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="ignore", defer_build=True)


Parsed = TypeVar("Parsed", bound=BaseModel)


def parse_answer(model: type[Parsed], value: Any, what: str) -> Parsed:
    """`value` as `model`; an answer of another shape is a BadResponse naming `what`."""
    try:
        return model.model_validate(value)
    except ValidationError as error:
        raise BadResponse(
            f"{what}: answer does not match the query ({error.error_count()} problems)"
        ) from error
