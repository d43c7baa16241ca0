"""`corrections marker`: the hidden line that ends an analysis comment, exactly as the reader parses it.

Sends nothing; light at import, the marker's schema loads when it runs (and the context folder's
model only with `--context`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from commandline.arguments import issue_number
from corrections.commands import SUMMARIES
from corrections.commands.refusal import Refused, refusing

if TYPE_CHECKING:
    from corrections.rules.analysis_marker import Receipt

NAME = "marker"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Print `<!-- assistant:analysis {JSON} -->` for the labels the analysis puts forward and its "
    "duplicate notice, exactly as the reader parses it. Put the line alone at the end of the "
    "comment. With ASSISTANT_MARKER_KEY set, --issue is required and the marker is sealed for "
    "that issue."
)
EXAMPLES = (
    "corrections marker --labels bug,crash --duplicate-of 120",
    "corrections marker --labels bug --context corrections-context   # with its receipt",
)
TOKEN = False


@dataclass(frozen=True)
class MarkerOptions:
    """The labels (each `--labels` value as given), the duplicate, the issue that seals it."""

    labels: tuple[str, ...] = ()
    duplicate_of: int | None = None
    issue: int | None = None
    follow_up: bool = False
    context: Path | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--labels",
        action="append",
        default=[],
        metavar="NAMES",
        help="label names, comma-separated (bug,crash); may be repeated; '' means none",
    )
    parser.add_argument(
        "--duplicate-of", type=issue_number, metavar="N", help="the issue this one duplicates (120 or '#120')"
    )
    parser.add_argument(
        "--issue", type=issue_number, metavar="N", help="the issue the comment goes on (seals the marker)"
    )
    parser.add_argument(
        "--follow-up", action="store_true", help="a follow-up analysis (default: a first analysis)"
    )
    parser.add_argument(
        "--context",
        metavar="DIR",
        help="the folder `corrections read` wrote for this analysis: the marker's receipt names the "
        "issues of its correction lines and the learnings of its learnings block (default: no receipt)",
    )


def options_from(args: argparse.Namespace) -> MarkerOptions:
    return MarkerOptions(
        labels=tuple(args.labels),
        duplicate_of=args.duplicate_of,
        issue=args.issue,
        follow_up=args.follow_up,
        context=None if args.context is None else Path(args.context),
    )


def marker_labels(values: Sequence[str]) -> list[str]:
    """The label names of `--labels` values: split at commas, trimmed; `--labels ''` means none."""
    names: list[str] = []
    for value in values:
        if not value.strip():
            continue
        parts = [part.strip() for part in value.split(",")]
        if not all(parts):
            raise Refused(f"--labels: an empty label name in {value!r}")
        names += parts
    return names


def _folder_receipt(folder: Path) -> Receipt:
    """The receipt of the context folder `--context` names, from its corrections.json read by the
    file's one decoder (no link followed); pydantic loads only with `--context`."""
    from corrections.render.context_folder import PromptError, read_index

    try:
        return read_index(folder).receipt(folder / "corrections.json")
    except PromptError as error:
        raise Refused(str(error)) from error


def run(options: MarkerOptions) -> int:
    """Print the marker line; 2 with one line on stderr when refused."""
    return refusing(lambda say: _marker(options))


def _marker(options: MarkerOptions) -> int:
    from assistant.markers import KEY_VARIABLE, marker_key
    from corrections.rules.analysis_marker import MarkerError, analysis_marker

    key = marker_key()
    if key is not None and options.issue is None:
        raise Refused(f"--issue: required with {KEY_VARIABLE} set (the seal names the issue)")
    try:
        receipt = _folder_receipt(options.context) if options.context is not None else None
        line = analysis_marker(
            marker_labels(options.labels),
            options.duplicate_of,
            kind="follow-up" if options.follow_up else "first",
            context=receipt,
            number=options.issue,
            key=key,
        )
    except MarkerError as error:
        raise Refused(str(error).replace("duplicate_of:", "--duplicate-of:")) from error
    print(line, flush=True)
    return 0
