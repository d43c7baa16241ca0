"""The label vocabulary: looking a label up costs the same whatever the number of labels."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.markdown import parser
from corrections.rules.vocabulary import Vocabulary, _declared, _description, parse_vocabulary


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


def _declared_by_a_whole_parse(text: str) -> list[tuple[str, str]]:
    """What labels.md declared when every paragraph was parsed inline (the code before the read
    parsed only the paragraphs that can declare a label): the reference for `_declared`."""
    tokens = parser().parse(text)
    return [
        (inline.children[0].content, _description(inline.children[1:]))
        for before, opened, inline in zip(tokens, tokens[1:], tokens[2:], strict=False)
        if before.type == "list_item_open"
        and opened.type == "paragraph_open"
        and inline.type == "inline"
        and inline.children
        and inline.children[0].type == "code_inline"
    ]


# Lines of labels.md as people (and hostile text) write them: list markers of every kind and
# depth, code spans, fences, HTML, link references (resolved only with the blocks' definitions),
# escapes, line endings of every kind.
INDENTS = ("", "", "  ", "    ", "> ", "\t", " > - ")
MARKERS = ("", "- ", "- ", "* ", "+ ", "1. ", "2) ", "- - ", "-\t")
PIECES = (
    "`bug`", "`bug`", "`crash` ", "``a`b``", "`", "``", "`x", ": ", " - ", "\u2014 ", "words ", "\\`",
    "&#96;", "*", "_", "**x**", "[x]", "[`y`][x]", "<!--", "-->", "<div>", "</div>", "<b>", "```",
    "~~~", "# ", "---", "\x00", "\u00e9",
)  # fmt: skip
line = st.builds(
    "".join,
    st.tuples(
        st.sampled_from(INDENTS),
        st.sampled_from(MARKERS),
        st.lists(st.sampled_from(PIECES), max_size=5).map("".join),
    ),
)
ends = st.sampled_from(("\n", "\n", "\n\n", "\r\n", "\r", "\n[x]: /u\n"))
labels_md = st.lists(st.tuples(line, ends).map("".join), max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(labels_md)
def test_only_the_paragraphs_that_can_declare_are_parsed_inline_and_declare_the_same(text: str) -> None:
    assert _declared(text) == _declared_by_a_whole_parse(text)


def test_a_description_resolves_a_link_reference_defined_anywhere_in_the_file() -> None:
    text = "- `bug`: see [the guide][g] and `x`\n\n[g]: https://example.com/guide\n"
    assert _declared(text) == _declared_by_a_whole_parse(text) == [("bug", "see the guide and x")]
    assert parse_vocabulary(text).described() == [("bug", "see the guide and x")]
