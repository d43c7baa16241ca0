"""The note's parts: a name the reader does not know is a bug that says so, never a silent gap."""

from __future__ import annotations

from typing import get_args

import pytest

from corrections.read import notes


def test_every_part_has_words_and_is_named_in_the_note() -> None:
    for name in get_args(notes.Part):
        note = notes.partial([notes.part(name)], ["partial answer"])
        assert note is not None and notes.PARTS[name] in note


def test_an_unknown_part_is_an_error_naming_it() -> None:
    with pytest.raises(ValueError, match="unknown missing part 'reviews'"):
        notes.part("reviews")


def test_an_unknown_part_is_not_dropped_from_the_note() -> None:
    with pytest.raises(KeyError):
        notes.partial(["reviews"], ["partial answer"])  # type: ignore[list-item]
