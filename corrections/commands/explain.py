"""`corrections explain N`: why one issue taught the assistant what it did.

Reads the issue alone through the reader's one entry (`read_trail`), and for its first analysis
the widest window once (what that analysis had been given). A failing GitHub is one line and exit
1, bad arguments 2. Light at import: the reader and the explanation load when it runs.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from commandline.arguments import (
    RepositoryOptions,
    add_assistant_arguments,
    add_base_ref_argument,
    add_config_argument,
    add_repository_arguments,
    issue_number,
)
from commandline.token import required_token
from commandline.usage import UsageError
from corrections.commands import SUMMARIES
from queries.defaults import GITHUB_GRAPHQL_URL

if TYPE_CHECKING:
    from corrections.quality.repeats import AnalysisRepeats
    from corrections.read.options import ReadOptions
    from corrections.read.trail import TrailOutcome

NAME = "explain"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Put into words what the rules found on one issue: each label event, the duplicate notice, "
    "the 👎 reactions, and what corrections.md learns from it."
)
EXAMPLES = ("corrections explain '#41' --repo octo/demo",)
TOKEN = True


@dataclass(frozen=True)
class ExplainOptions:
    """The issue and the repository's shared flags."""

    number: int
    shared: RepositoryOptions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", type=issue_number, metavar="N", help="the issue number: 41 or '#41'")
    add_repository_arguments(parser, api_url=GITHUB_GRAPHQL_URL)
    add_config_argument(parser)
    add_base_ref_argument(parser, reads="labels.md")
    add_assistant_arguments(parser)


def options_from(args: argparse.Namespace) -> ExplainOptions:
    return ExplainOptions(number=args.number, shared=RepositoryOptions.options_from(args))


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(options: ExplainOptions) -> int:
    """Print why issue N taught the assistant what it did (or nothing)."""
    token = required_token(options.shared.api_url)
    if options.number < 1:
        raise UsageError(f"issue number must be positive, got {options.number}")
    from commandline import event_loop
    from commandline.notices import Notices
    from corrections.quality.explain import explain
    from corrections.read import entry, notes
    from corrections.read.options import command_options
    from queries.errors import GitHubError

    read = command_options(options.shared)
    say = Notices("corrections")
    try:
        trail = event_loop.run(entry.read_trail(read, options.number, token, _stderr))
    except GitHubError as error:
        check = notes.what_to_check(error.category, actions=say.actions)
        say.error(f"GitHub failed ({error.category}): the issue could not be read. {check}".strip())
        return 1
    for warning in trail.warnings:
        say.warning(warning)
    say.close()
    if trail.issue is None:
        print(f"#{options.number}: no such issue in {read.owner}/{read.name} (or it is a pull request).")
        return 1
    repeats = _repeats_of(read, token, trail)
    for line in explain(
        trail.issue, trail.settings, trail.permissions, trail.reactors, trail.facts, repeats=repeats
    ):
        print(line)
    return 0


def _repeats_of(read: ReadOptions, token: str, trail: TrailOutcome) -> AnalysisRepeats | None:
    """What the issue's first analysis had been given, from one read of the widest window (the
    receipt's issues, or the window as of the analysis); None without a first analysis or a read."""
    from dataclasses import replace

    from commandline import event_loop
    from corrections.quality.numbers import complete_after
    from corrections.quality.repeats import analysis_repeats
    from corrections.read import entry
    from corrections.read.issue_read import IssueRead
    from corrections.read.options import ReadVariant
    from corrections.read.status import Failed
    from corrections.rules.analysis_marker import (
        MAX_RECEIPT_CORRECTIONS as WIDEST,
    )  # what any context could hold
    from corrections.rules.issue import correct, first_analysis

    issue = trail.issue
    assert issue is not None
    first = first_analysis(issue, trail.settings)
    if first is None:
        return None
    window = read.config.context.max_analyzed
    widest = replace(read, variant=ReadVariant(widest=True, learnings=False))
    outcome = event_loop.run(entry.read(widest, token, _stderr))
    if isinstance(outcome.status, Failed):
        _stderr(f"corrections: the window could not be read ({outcome.status.failure}): repeats not said")
        return None
    settings = outcome.settings
    found = next((r for r in outcome.window if r.issue.number == issue.number), None)
    if found is None or found.first is None:
        found = IssueRead.of(issue, None, 0, settings)
    assert found.first is not None
    correction = correct(found.issue, found.first, trail.reactors or (), settings, trail.permissions)
    return analysis_repeats(
        outcome, found, correction, settings, window=window, read_back_to=complete_after(outcome, WIDEST)
    )
