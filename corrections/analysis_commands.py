"""The commands around one analysis: `corrections prompt` (what the model reads before it) and
`corrections marker` (the line that ends it).

Neither talks to GitHub. Their arguments are declared here, light; the prompt's renderer (jinja2)
and the marker's model (pydantic) load only when the command runs. A usage error is one line on
stderr and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from commandline.arguments import issue_number
from commandline.notices import Notices
from corrections.prompt_budget import CHARS_PER_TOKEN, DEFAULT_MAX_CHARS

NAMES = frozenset({"prompt", "marker"})
Command = Callable[..., argparse.ArgumentParser]


class _Refused(ValueError):
    """What the command cannot do as asked; the message is the one line shown."""


def add_parsers(commands: Any, command: Command) -> None:
    """Register `prompt` and `marker`; `command` makes a subcommand in the CLI's help style."""
    prompt = command(
        commands,
        "prompt",
        "the context folder as one ready-to-send prompt, within a character budget",
        "Put the guidance, corrections.md, learnings.md and, within --max-chars, excerpts of "
        "issues/<n>.md (the corrected issues first) into one text for a model that reads only its "
        "prompt. An excerpt is kept whole, cut between whole lines, or left out, and the prompt says "
        "which. Its size (characters, and tokens estimated as characters / 4) goes to stderr.",
        "corrections prompt --context corrections-context --issue 61 --out prompt.md",
    )
    prompt.add_argument(
        "--context",
        default="corrections-context",
        metavar="DIR",
        help="the folder `corrections read` wrote, its --out (default: %(default)s)",
    )
    prompt.add_argument(
        "--issue",
        type=issue_number,
        metavar="N",
        help="the issue being analysed: named in the prompt, its own excerpt left out (41 or '#41')",
    )
    prompt.add_argument(
        "--max-chars",
        type=int,
        default=DEFAULT_MAX_CHARS,
        metavar="N",
        help=f"characters the whole prompt may take (default: %(default)s, about "
        f"{DEFAULT_MAX_CHARS // CHARS_PER_TOKEN:,} tokens)",
    )
    prompt.add_argument("--out", metavar="FILE", help="write the prompt to FILE (default: stdout)")
    marker = command(
        commands,
        "marker",
        "print the hidden marker line that ends an analysis comment",
        "Print `<!-- assistant:analysis {JSON} -->` for the labels the analysis puts forward and its "
        "duplicate notice, exactly as the reader parses it. Put the line at the end of the comment.",
        "corrections marker --labels bug,crash --duplicate-of 120",
        "corrections marker --labels bug --context corrections-context   # with its receipt",
    )
    marker.add_argument(
        "--labels",
        action="append",
        default=[],
        metavar="NAMES",
        help="label names, comma-separated (bug,crash); may be repeated; '' means none",
    )
    marker.add_argument(
        "--duplicate-of", type=issue_number, metavar="N", help="the issue this one duplicates (120 or '#120')"
    )
    marker.add_argument(
        "--follow-up", action="store_true", help="a follow-up analysis (default: a first analysis)"
    )
    marker.add_argument(
        "--context",
        metavar="DIR",
        help="the folder `corrections read` wrote for this analysis: the marker's receipt names the "
        "issues of its correction lines and the learnings of its learnings block (default: no receipt)",
    )


def marker_labels(values: Sequence[str]) -> list[str]:
    """The label names of `--labels` values: split at commas, trimmed; `--labels ''` means none."""
    names: list[str] = []
    for value in values:
        if not value.strip():
            continue
        parts = [part.strip() for part in value.split(",")]
        if not all(parts):
            raise _Refused(f"--labels: an empty label name in {value!r}")
        names += parts
    return names


def _marker(args: argparse.Namespace) -> int:
    from corrections.marker_line import MarkerError, analysis_marker, folder_receipt

    try:
        receipt = folder_receipt(Path(args.context)) if args.context is not None else None
        line = analysis_marker(
            marker_labels(args.labels),
            args.duplicate_of,
            kind="follow-up" if args.follow_up else "first",
            context=receipt,
        )
    except MarkerError as error:
        raise _Refused(str(error).replace("duplicate_of:", "--duplicate-of:")) from error
    print(line, flush=True)
    return 0


def _prompt(args: argparse.Namespace, say: Notices) -> int:
    from assistant.files import write_atomic
    from corrections.prompt import PromptError, assemble_prompt, read_context

    if args.max_chars <= 0:
        raise _Refused(f"--max-chars: must be a positive number of characters, got {args.max_chars}")
    try:
        context = read_context(Path(args.context))
    except PromptError as error:
        raise _Refused(str(error)) from error
    for warning in context.warnings:
        say.warning(warning)
    prompt = assemble_prompt(context, issue=args.issue, max_chars=args.max_chars)
    if prompt.over_budget:
        say.warning(
            f"the guidance, corrections and learnings alone take {prompt.chars:,} characters, "
            f"over --max-chars {args.max_chars:,}: no issue excerpt fits"
        )
    if args.out:
        write_atomic(Path(args.out), prompt.text)
    else:
        sys.stdout.write(prompt.text)
        sys.stdout.flush()
    print(f"corrections: prompt: {prompt.describe()}", file=sys.stderr, flush=True)
    return 0


def run(args: argparse.Namespace) -> int:
    """Run `prompt` or `marker`; 0 done, 2 with one line on stderr when refused."""
    # stdout carries the prompt or the marker line: every notice, annotations included, goes to stderr.
    say = Notices("corrections", stdout=sys.stderr)
    try:
        return _marker(args) if args.command == "marker" else _prompt(args, say)
    except _Refused as error:
        say.error(str(error))
        return 2
    finally:
        say.close()
