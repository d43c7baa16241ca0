"""The one error a refused mutation raises, shared by the store's issue and git writes."""

from __future__ import annotations


class MutationError(Exception):
    """A mutation GitHub would refuse; ``type`` is GitHub's error type."""

    def __init__(self, message: str, type_: str = "UNPROCESSABLE") -> None:
        super().__init__(message)
        self.type = type_
