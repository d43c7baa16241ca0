"""Globs: what they match, what is rejected and why, specificity, and the indexed "any match"."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from learnings.rules.globs import MAX_GLOB, MAX_PATH, GlobError, PathIndex, escape_glob, parse_glob


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("src/api/users.py", "src/api/users.py", True),
        ("src/api/users.py", "src/api/users.pyc", False),
        ("src/api/**", "src/api/users.py", True),
        ("src/api/**", "src/api/v1/users.py", True),
        ("src/api/**", "src/api", False),
        ("src/api/**", "src/apis/x.py", False),
        ("src/*.py", "src/a.py", True),
        ("src/*.py", "src/sub/a.py", False),
        ("**/*.py", "a.py", True),
        ("**/*.py", "deep/er/a.py", True),
        ("**/*.py", "a.pyx", False),
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b", True),
        ("a/**/b", "a/x/y/c", False),
        ("**", "anything/at/all", True),
        ("file?.md", "file1.md", True),
        ("file?.md", "file/.md", False),
        ("v[0-9].txt", "v7.txt", True),
        ("v[!0-9].txt", "v7.txt", False),
        ("v[!0-9].txt", "vx.txt", True),
        ("[]]x", "]x", True),
        ("a[+-0]b", "a/b", False),
        ("a[!x]b", "a/b", False),
        ("a/**/b", "a//b", True),
        ("a/**/**/b", "a/b", True),
        ("a/**/**", "a/x", True),
        ("a/**", "a/", False),
        ("**/b", "b", True),
        ("*", "", True),
        ("a*", "a", True),
        ("docs/a.b+c(d).md", "docs/a.b+c(d).md", True),
    ],
)
def test_matching(glob: str, path: str, expected: bool) -> None:
    assert parse_glob(glob).matches(path) is expected


@pytest.mark.parametrize(
    ("glob", "problem"),
    [
        ("", "empty"),
        ("src/[ab", "unclosed `[`"),
        ("src/a]", "`]` without `[`"),
        ("src/a**", "`**` must be a whole path segment"),
        ("/src/**", "starts with `/`"),
        ("src//a", "empty path segment"),
        ("src/", "empty path segment"),
        ("../x", "`..` segment"),
        ("src\\a", "backslash"),
        ("[z-a]", "bad character class"),
    ],
)
def test_bad_globs_say_what_is_wrong(glob: str, problem: str) -> None:
    with pytest.raises(GlobError, match="bad glob") as caught:
        parse_glob(glob)
    assert problem in str(caught.value)
    assert f"`{glob}`" in str(caught.value)


def test_a_glob_longer_than_the_bound_is_refused() -> None:
    parse_glob("a" * MAX_GLOB)
    with pytest.raises(GlobError, match=f"longer than {MAX_GLOB} characters"):
        parse_glob("a" * (MAX_GLOB + 1))


def test_a_path_longer_than_the_bound_matches_no_glob() -> None:
    assert parse_glob("**").matches("a" * MAX_PATH)
    assert not parse_glob("**").matches("a" * (MAX_PATH + 1))
    assert not parse_glob("*").matches("a" * (MAX_PATH + 1))


def _reference(glob: str) -> re.Pattern[str]:
    """What a glob meant when it was a regular expression (trusted test input only)."""
    out = ""
    segments = glob.split("/")
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            out += ".+" if last else "(?:.*/)?"
            continue
        position = 0
        while position < len(segment):
            char = segment[position]
            if char == "[":
                negated = segment.startswith("!", position + 1)
                end = segment.index("]", position + 2 + negated)
                body = segment[position + 1 + negated : end]
                out += f"(?!/)[{'^' if negated else ''}{re.escape(body).replace(chr(92) + '-', '-')}]"
                position = end + 1
                continue
            out += {"*": "[^/]*", "?": "[^/]"}.get(char, re.escape(char))
            position += 1
        out += "" if last else "/"
    return re.compile(out, re.DOTALL)


GLOB_PARTS = ["a", "b", "c", "/", "*", "?", "**", "**/", "*a*"]
GLOB_PARTS += ["[ab]", "[!a]", "[a-c]", "[]a]", "[!]]", "[a-]"]


@given(
    st.lists(st.sampled_from(GLOB_PARTS), min_size=1, max_size=6).map("".join),
    st.text(alphabet="ab/c]-", max_size=12),
)
def test_the_automaton_means_what_the_regular_expression_meant(glob_text: str, path: str) -> None:
    try:
        glob = parse_glob(glob_text)
    except GlobError:
        return
    assert glob.automaton.matches(path) is (_reference(glob_text).fullmatch(path) is not None)
    assert glob.matches(path) is glob.automaton.matches(path)


def test_specificity_orders_exact_then_prefix_then_wildcards() -> None:
    order = ["src/api/users.py", "src/api/*.py", "src/api/**", "src/**", "**/*.py", "**"]
    scores = [parse_glob(glob).specificity for glob in order]
    assert scores == sorted(scores, reverse=True)
    assert len(set(scores)) == len(scores)


@given(st.text(alphabet="ab*?[]/.", min_size=1, max_size=12))
def test_escaped_path_matches_only_itself(path: str) -> None:
    parts = path.split("/")
    if any(part in {"", ".", ".."} for part in parts) or "**" in path:
        return
    glob = parse_glob(escape_glob(path))
    assert glob.matches(path)
    assert not glob.matches(path + "x")


@given(
    st.lists(st.sampled_from(["a", "b", "src", "x.py", "y.md", "[c]"]), min_size=1, max_size=4).map("/".join),
    st.lists(
        st.lists(st.sampled_from(["a", "b", "src", "x.py", "y.md", "[c]"]), min_size=1, max_size=4).map(
            "/".join
        ),
        max_size=8,
    ),
    st.sampled_from(
        [
            "**",
            "src/**",
            "*.py",
            "**/*.py",
            "a/*/x.py",
            "**/b/**",
            "src/x.py",
            "[ab]/**",
            "src/*.py",
            "**/*",
            "a*",
        ]
    ),
)
def test_index_agrees_with_testing_every_path(extra: str, paths: list[str], glob_text: str) -> None:
    glob = parse_glob(glob_text)
    everything = [*paths, extra]
    assert PathIndex(everything).any_match(glob) is any(glob.matches(path) for path in everything)


SHAPED = [
    "a.py",
    "**",
    "src/**",
    "**/*.py",
    "**/*",
    "src/*.py",
    "*.md",
    "src/a*.py",
    "a*a",
    "[ab]/**",
    "a/**/b",
]


@given(
    st.sampled_from(SHAPED),
    st.lists(
        st.sampled_from(["a", "aa", "src", "a.py", "b", "x.md", "src/a.py", ".py", "ab.py"]),
        min_size=1,
        max_size=4,
    ),
)
def test_string_shortcuts_agree_with_the_automaton(glob_text: str, segments: list[str]) -> None:
    glob = parse_glob(glob_text)
    path = "/".join(segments)
    assert glob.matches(path) is glob.automaton.matches(path)


def test_common_shapes_need_no_automaton() -> None:
    shapes = {text: parse_glob(text).shape for text in SHAPED}
    assert shapes == {
        "a.py": "literal",
        "**": "all",
        "src/**": "under",
        "**/*.py": "anywhere",
        "**/*": "anywhere",
        "src/*.py": "flat",
        "*.md": "flat",
        "src/a*.py": "flat",
        "a*a": "flat",
        "[ab]/**": "automaton",
        "a/**/b": "automaton",
    }


def test_a_glob_made_to_backtrack_answers_a_long_path() -> None:
    """`*a*a…*b` against `aaa…a/b` took 35.8 s at 34 a's as a backtracking regular expression."""
    glob = parse_glob("*a" * 12 + "*b")
    assert not glob.matches("a" * 9_998 + "/b")
    assert glob.matches("a" * 9_999 + "b")
    assert not glob.matches("a" * 10_000)
