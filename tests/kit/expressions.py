"""GitHub Actions expressions (`${{ }}`), the forms action.yml uses, evaluated as the runner does.

Property access (`steps.cache.outputs.cache-hit`, `inputs.max-analyzed`), string literals,
`==` and `!=` (strings compared ignoring case, as GitHub does), `&&`, `||` and parentheses.
Anything else (a function, an index, a number, `!`) raises ExpressionError: a replay that
guessed would test nothing.
https://docs.github.com/en/actions/reference/workflows-and-actions/expressions
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_TOKEN = re.compile(
    r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||\(|\))"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*))"
)
_TEMPLATE = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)


class ExpressionError(ValueError):
    """An expression outside the forms this evaluator knows, or a syntax error."""


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(text.rstrip()):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise ExpressionError(f"unsupported expression at {text[position:]!r} in {text!r}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        position = match.end()
    return tokens


def _text(value: Any) -> str:
    """A value as GitHub writes it into a string: null is empty, booleans are lower case."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Parser:
    def __init__(self, text: str, contexts: Mapping[str, Any]) -> None:
        self.text = text
        self.tokens = _tokens(text)
        self.index = 0
        self.contexts = contexts

    def parse(self) -> Any:
        value = self._or()
        if self.index != len(self.tokens):
            raise ExpressionError(f"unexpected {self.tokens[self.index][1]!r} in {self.text!r}")
        return value

    def _peek(self) -> str:
        return self.tokens[self.index][1] if self.index < len(self.tokens) else ""

    def _or(self) -> Any:
        value = self._and()
        while self._peek() == "||":
            self.index += 1
            right = self._and()
            value = value if value else right
        return value

    def _and(self) -> Any:
        value = self._comparison()
        while self._peek() == "&&":
            self.index += 1
            right = self._comparison()
            value = right if value else value
        return value

    def _comparison(self) -> Any:
        value = self._primary()
        if self._peek() in {"==", "!="}:
            operator = self.tokens[self.index][1]
            self.index += 1
            equal = _text(value).casefold() == _text(self._primary()).casefold()
            return equal if operator == "==" else not equal
        return value

    def _primary(self) -> Any:
        if self.index >= len(self.tokens):
            raise ExpressionError(f"expression ends early: {self.text!r}")
        kind, text = self.tokens[self.index]
        self.index += 1
        if text == "(":
            value = self._or()
            if self._peek() != ")":
                raise ExpressionError(f"missing ')' in {self.text!r}")
            self.index += 1
            return value
        if kind == "string":
            return text[1:-1].replace("''", "'")
        if kind == "name":
            return self._lookup(text)
        raise ExpressionError(f"unexpected {text!r} in {self.text!r}")

    def _lookup(self, path: str) -> Any:
        head, *rest = path.split(".")
        if head not in self.contexts:
            raise ExpressionError(f"unknown context {head!r} in {self.text!r}")
        value: Any = self.contexts[head]
        for part in rest:
            value = value.get(part) if isinstance(value, Mapping) else None
        return value


def evaluate(expression: str, contexts: Mapping[str, Any]) -> Any:
    """The value of one expression (the text between `${{` and `}}`, or an `if:`)."""
    return _Parser(expression, contexts).parse()


def interpolate(text: str, contexts: Mapping[str, Any]) -> str:
    """A string with every `${{ expression }}` replaced by its value as text."""
    return _TEMPLATE.sub(lambda match: _text(evaluate(match.group(1), contexts)), text)


def condition(text: str, contexts: Mapping[str, Any]) -> bool:
    """An `if:` (with or without `${{ }}`) as a boolean: empty strings and null are false."""
    stripped = text.strip()
    match = _TEMPLATE.fullmatch(stripped)
    return bool(evaluate(match.group(1) if match else stripped, contexts))
