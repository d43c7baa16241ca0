"""The learnings commands in a comment: `remember`, `ignore-rule` and `not-duplicate`.

A command is a line that starts with the command word, outside `>` quotes and code blocks
(assistant.commands.command_lines). Who may give one (pushers only) is decided by the caller.

    /assistant remember <text> [--paths GLOB...]
    /assistant ignore-rule [<fingerprint>]   # none: the finding whose review thread it replies in
    /assistant not-duplicate

The text of `remember` may be wrapped in one pair of quotes; globs may be wrapped in backticks
and separated by spaces or commas. The same command twice in a comment counts once. A command
that cannot be used (no text, a bad glob, a malformed fingerprint) is a `CommandProblem`, so the
caller can say why it was not recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.commands import command_lines
from learnings.rules.globs import GlobError, check_globs

PATHS_OPTION = "--paths"
_FINGERPRINT = re.compile(r"^[0-9a-f]{12}$")
_QUOTES = {'"': '"', "'": "'", "“": "”", "‘": "’", "`": "`"}  # noqa: RUF001 - typographic quotes


@dataclass(frozen=True)
class Remember:
    """`remember <text> [--paths GLOB...]`: a note for the store."""

    text: str
    paths: tuple[str, ...] = ()


@dataclass(frozen=True)
class IgnoreRule:
    """`ignore-rule <fingerprint>`: mark a finding of the assistant as a false positive.

    Without a fingerprint (None) it names the finding whose review thread it replies in; the
    caller, who knows the thread, resolves it or says why it cannot.
    """

    fingerprint: str | None


@dataclass(frozen=True)
class NotDuplicate:
    """`not-duplicate`: an objection to a duplicate notice (read by the correction reader)."""


@dataclass(frozen=True)
class CommandProblem:
    """A learnings command that cannot be used, and why (fixed words, safe to print)."""

    verb: str
    reason: str


LearningCommand = Remember | IgnoreRule | NotDuplicate


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] in _QUOTES and text[-1] == _QUOTES[text[0]]:
        return text[1:-1].strip()
    return text


def _remember(argument: str) -> Remember | CommandProblem:
    words = argument.split()
    if PATHS_OPTION in words:
        at = words.index(PATHS_OPTION)
        text_words, glob_words = words[:at], words[at + 1 :]
        globs = [part.strip("`") for word in glob_words for part in word.split(",") if part.strip("`")]
        if not globs:
            return CommandProblem("remember", "--paths without a glob")
    else:
        text_words, globs = words, []
    text = _unquote(" ".join(text_words))
    if not text:
        return CommandProblem("remember", "no text to remember")
    try:
        paths = check_globs(globs)
    except GlobError:
        return CommandProblem("remember", "a glob of --paths is not valid")
    return Remember(text=text, paths=tuple(dict.fromkeys(paths)))


def _ignore_rule(argument: str) -> IgnoreRule | CommandProblem:
    words = argument.split()
    if not words:
        return IgnoreRule(fingerprint=None)
    value = words[0].strip("`").casefold()
    if not _FINGERPRINT.match(value):
        return CommandProblem("ignore-rule", "the fingerprint is not 12 hexadecimal characters")
    return IgnoreRule(fingerprint=value)


def learning_commands(body: str, command_word: str) -> list[LearningCommand | CommandProblem]:
    """The learnings commands of a comment body, in order, each distinct command once.

    Other verbs of the command word are not learnings commands and are left out.
    """
    found: list[LearningCommand | CommandProblem] = []
    for command in command_lines(body, command_word):
        parsed: LearningCommand | CommandProblem
        if command.verb == "remember":
            parsed = _remember(command.argument)
        elif command.verb == "ignore-rule":
            parsed = _ignore_rule(command.argument)
        elif command.verb == "not-duplicate" and not command.argument:
            parsed = NotDuplicate()
        else:
            continue
        if parsed not in found:
            found.append(parsed)
    return found
