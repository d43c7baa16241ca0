"""What one details round brought back, as the reading (corrections/read/reading.py) uses it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from queries.models import CommentReactions, TimelinePage


class DetailsAnswer(Protocol):
    """What one details round brought back (`queries.fetch.DetailsResult`), as the reading uses it."""

    @property
    def reactions(self) -> Mapping[str, CommentReactions]: ...
    @property
    def bodies(self) -> Mapping[str, str]: ...  # issue node id -> body
    @property
    def permissions(self) -> Mapping[str, str]: ...  # login as asked -> permission level
    @property
    def permissions_forbidden(self) -> bool: ...
    @property
    def timelines(self) -> Mapping[int, TimelinePage]: ...
    @property
    def paths(self) -> Mapping[str, bool]: ...  # `REF:PATH` -> exists
    @property
    def failed(self) -> Sequence[str]: ...  # parts GitHub did not answer
