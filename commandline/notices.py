"""How a warning or an error reaches people: the one place that decides.

Inside GitHub Actions (`GITHUB_ACTIONS=true`, which the runner sets for every step) a warning
is a workflow command, `::warning title=...::text`, which GitHub shows as an annotation on the
run. Outside, it is a plain sentence on stderr, `corrections: warning: text`; no workflow
command is ever printed at a terminal.

Repeats are folded: the same text is said once per run. GitHub shows at most 10 warning
annotations of a step and drops the rest without a word (GitHub staff in
https://github.com/orgs/community/discussions/26680; https://github.com/orgs/community/discussions/68471),
so inside Actions the first ANNOTATIONS - 1 distinct warnings are annotations, every later
one is a plain line of the step's log, and one last annotation counts them. At a terminal the
first MAX_PLAIN are printed and the rest counted, so a file with a million broken lines keeps
the output readable.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO

from commandline.workflow import command

ANNOTATIONS = 10
MAX_PLAIN = 50


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """`1 point`, `3 points`: a number and its noun, as a sentence for a person says it."""
    return f"{number:,} {singular if number == 1 else plural or singular + 's'}"


def in_actions(environ: Mapping[str, str] | None = None) -> bool:
    """Whether this process runs as a GitHub Actions step."""
    environ = os.environ if environ is None else environ
    return environ.get("GITHUB_ACTIONS", "") == "true"


def _one_line(text: str) -> str:
    """Line breaks folded, so a message can never start a line of its own (or a workflow command)."""
    return " ".join(text.splitlines())


class Notices:
    """The warnings and errors of one run of one program (`corrections` or `learnings`)."""

    def __init__(
        self,
        program: str,
        *,
        actions: bool | None = None,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
    ) -> None:
        self._program = program
        self._actions = in_actions() if actions is None else actions
        self._stdout = stdout
        self._stderr = stderr
        self._seen: set[str] = set()
        self._shown = 0
        self._held = 0

    @property
    def actions(self) -> bool:
        """Whether workflow commands are printed (inside GitHub Actions)."""
        return self._actions

    def _out(self) -> TextIO:
        return self._stdout or sys.stdout

    def _err(self) -> TextIO:
        return self._stderr or sys.stderr

    def warning(self, message: str) -> None:
        """Say one warning (once per run, however often it is raised)."""
        if message in self._seen:
            return
        self._seen.add(message)
        if self._actions:
            if self._shown < ANNOTATIONS - 1:
                self._shown += 1
                print(command("warning", message, title=self._program), file=self._out(), flush=True)
            else:
                self._held += 1
                print(f"{self._program}: warning: {_one_line(message)}", file=self._out(), flush=True)
            return
        if self._shown < MAX_PLAIN:
            self._shown += 1
            print(f"{self._program}: warning: {_one_line(message)}", file=self._err(), flush=True)
        else:
            self._held += 1

    def error(self, message: str) -> None:
        """Say an error: an `::error::` annotation inside Actions, a plain line on stderr outside."""
        if self._actions:
            print(command("error", message, title=self._program), file=self._out(), flush=True)
        else:
            print(f"{self._program}: error: {_one_line(message)}", file=self._err(), flush=True)

    def close(self) -> None:
        """Say how many warnings were not annotated (Actions) or not shown (terminal)."""
        if not self._held:
            return
        held, self._held = self._held, 0
        if self._actions:
            print(
                command("warning", f"{held} more warnings: see the step's log", title=self._program),
                file=self._out(),
                flush=True,
            )
        else:
            print(f"{self._program}: warning: {held} more warnings not shown", file=self._err(), flush=True)
