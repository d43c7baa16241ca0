"""What a model refused, as the one line a maintainer reads: "`key`: message"."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


def validation_problem(error: ValidationError) -> str:
    """The first problem pydantic found, naming its key (dotted) when it has one."""
    first = error.errors()[0]
    key = ".".join(str(part) for part in first["loc"])
    message = first["msg"].removeprefix("Value error, ")
    return f"`{key}`: {message}" if key else message
