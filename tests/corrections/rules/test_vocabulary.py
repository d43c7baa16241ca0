"""The label vocabulary: looking a label up costs the same whatever the number of labels."""

from __future__ import annotations

from collections.abc import Iterator

from corrections.rules.vocabulary import Vocabulary


class _CountedNames(tuple[str, ...]):
    """Names that count how often they are gone through."""

    walks = 0

    def __iter__(self) -> Iterator[str]:
        type(self).walks += 1
        return super().__iter__()


def test_looking_labels_up_goes_through_the_names_once() -> None:
    """4.1 s for 40,000 labels when every look-up went through every name."""
    names = _CountedNames(f"label-{n}" for n in range(40_000))
    _CountedNames.walks = 0
    vocabulary = Vocabulary(names)
    found = [vocabulary.canonical(f"  LABEL-{n} ") for n in range(0, 40_000, 40)]
    assert found == [f"label-{n}" for n in range(0, 40_000, 40)]
    assert vocabulary.canonical("label-40000") is None
    assert "Label-7" in vocabulary
    assert _CountedNames.walks <= 1


def test_the_first_declaration_of_a_name_wins() -> None:
    vocabulary = Vocabulary(("Bug", "bug", "crash"))
    assert vocabulary.canonical("BUG") == "Bug"
    assert vocabulary == Vocabulary(("Bug", "bug", "crash"))
