"""The documents as text (queries/document_text.py), for the request sent before graphql-core loads:
the same documents, fragments and fixed variables as graphql-core's parse of the same files."""

from __future__ import annotations

import pytest
from graphql import parse, print_ast

from queries.document_text import (
    declared_variables,
    operation_text,
    spreads,
    timeline_item_types,
    without_comments,
)
from queries.documents import operation, operation_names


@pytest.mark.parametrize("name", operation_names())
def test_every_operation_as_text_is_the_parsed_document(name: str) -> None:
    as_text, parsed = operation_text(name), operation(name)
    assert print_ast(parse(as_text.text)) == print_ast(parsed.document)
    assert as_text.fixed_variables == parsed.fixed_variables
    assert "#" not in as_text.text  # comments stay home: none of the files has a string with one


def test_the_scan_page_sends_its_item_types() -> None:
    window = operation_text("CorrectionWindow")
    assert window.fixed_variables == {"timelineItemTypes": list(timeline_item_types())}
    assert "fragment TimelinePage on IssueTimelineItemsConnection" in window.text
    assert window.text.count("fragment BlobText ") == 1  # spread three times, sent once


def test_a_spread_is_a_named_fragment_not_an_inline_one() -> None:
    source = """
    query Q($a: Int!, $b: [String!] = ["x"]) @dir(arg: $a) {
      # ...Commented is a comment
      a { ...Named ... on User { login } ... @include(if: true) { id } }
      b(text: "...InString # not a comment", block: \"\"\"...Block \\\"\"\" # still in it\"\"\") { ...Other }
    }
    """
    assert spreads(source) == ["Named", "Other"]
    assert declared_variables(source) == ["a", "b"]
    kept = without_comments(source)
    assert "Commented" not in kept
    assert '"...InString # not a comment"' in kept and '# still in it"""' in kept


def test_an_unclosed_string_is_refused() -> None:
    with pytest.raises(ValueError, match="not closed"):
        spreads('query Q { a(t: "open\n) }')
    with pytest.raises(ValueError, match="not closed"):
        spreads('query Q { a(t: """open) }')


def test_an_operation_that_is_not_there_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        operation_text("NoSuchOperation")
