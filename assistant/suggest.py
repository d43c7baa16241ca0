"""The word probably meant when one is mistyped: a configuration key, a command, an option.

One matcher for all of them (difflib's similarity, at least 0.6), so `max_analysed` and `raed`
are judged alike; and the argument parser of both commands, which adds "did you mean ...?" to
argparse's error for an unknown command or option, as gh does. No I/O.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)'")
_OPTION = re.compile(r"(?<![\w-])--[a-z0-9][a-z0-9-]*")


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known word closest to `word` (difflib), or None when none is close enough."""
    import difflib  # only for a mistyped word

    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return close[0] if close else None


class Parser(argparse.ArgumentParser):
    """An argument parser that names the command or option probably meant.

    Parse with `parse` (argparse's parse_args, plus the hint for an unknown option); an unknown
    command gets its hint in `error`. Subcommand parsers are of this class too (argparse makes
    them of their parent's class).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._subcommands: tuple[str, dict[str, Parser]] | None = None
        super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:  # argparse._SubParsersAction is private
        """argparse's add_subparsers, remembering the commands (for the hints)."""
        action = super().add_subparsers(**kwargs)
        self._subcommands = (kwargs.get("dest") or "", action.choices)
        return action

    def parse(self, argv: Sequence[str] | None) -> argparse.Namespace:
        """The arguments, as parse_args gives them; an unknown option is an error naming the one meant."""
        parsed, extra = self.parse_known_args(argv)
        if extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}{self._option_hint(parsed, extra)}")
        return parsed

    def error(self, message: str) -> NoReturn:
        """argparse's usage error (status 2), with "did you mean ...?" for a mistyped command."""
        found = _INVALID_CHOICE.search(message)
        if found is not None and self._subcommands is not None:
            guess = closest(found.group(1), self._subcommands[1])
            if guess is not None:
                message = f"{message}; did you mean {guess}?"
        super().error(message)

    def _chosen(self, parsed: argparse.Namespace) -> Parser:
        """The parser of the (sub)command the arguments chose, the deepest one."""
        parser = self
        while parser._subcommands is not None:
            dest, choices = parser._subcommands
            child = choices.get(getattr(parsed, dest, None) or "")
            if child is None:
                break
            parser = child
        return parser

    def _option_hint(self, parsed: argparse.Namespace, extra: Sequence[str]) -> str:
        """ "; did you mean --out?" for the first unknown option close to one of the command's own."""
        known = set(_OPTION.findall(self._chosen(parsed).format_help()))
        for word in extra:
            if word.startswith("--"):
                guess = closest(word.split("=", 1)[0], known)
                if guess is not None:
                    return f"; did you mean {guess}?"
        return ""
