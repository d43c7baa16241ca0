"""`corrections sync`: `learnings sync`, and in its pull request a learning proposed for each
decision maintainers made again and again.

The command layer composes both halves (learnings may not import corrections): the corrections
are read as `corrections read` reads them (the widest window, 100 analyses), the decisions found
by the corrections' own rules (corrections/quality/recurring.py), and the sync records them in its
one pull request beside the accepted commands and proposals: merging that pull request is the
review, nothing reaches the default branch before. A read that fails leaves the proposals out
with a note; the commands and proposals are still recorded. Light at import: the read and the
sync load when it runs.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from corrections.commands import SUMMARIES
from learnings.commands import sync as learnings_sync
from queries.defaults import GITHUB_GRAPHQL_URL

if TYPE_CHECKING:
    from assistant.config import Config
    from corrections.read.options import ReadOptions
    from learnings.sync.recurring import Recurring

NAME = "sync"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Run `learnings sync` (the accepted commands and 👍 proposals into one pull "
    "request) and propose in that pull request a learning for each decision maintainers made "
    "on several issues (the same labels removed and added, the same duplicate notice objected "
    "to), each with the issues behind it. Merging the pull request is the review."
)
EXAMPLES = ("corrections sync --repo octo/demo",)
TOKEN = True


@dataclass(frozen=True)
class SyncOptions:
    """The decisions' threshold, and the sync's own options (`learnings sync`'s record)."""

    learnings: learnings_sync.SyncOptions
    min_issues: int | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    learnings_sync.add_arguments(parser)
    parser.add_argument(
        "--min-issues",
        type=int,
        metavar="N",
        help="propose a decision made on at least N issues (default: 3, chosen by measurement)",
    )


def options_from(args: argparse.Namespace) -> SyncOptions:
    return SyncOptions(learnings=learnings_sync.options_from(args), min_issues=args.min_issues)


def _say(line: str) -> None:
    print(f"corrections: sync: {line}", file=sys.stderr)


def decisions_read(owner: str, name: str, config: Config, api_url: str) -> ReadOptions:
    """The read of the decisions: the widest window, as a habit of the maintainers shows over more
    than the prompt's 30 analyses (the threshold was measured on 100: bench/proposals_threshold.py)."""
    from corrections.read.options import ReadOptions, ReadVariant

    return ReadOptions(
        owner=owner, name=name, config=config, api_url=api_url, variant=ReadVariant(widest=True)
    )


def run(options: SyncOptions) -> int:
    """Read the recurring decisions, then run the sync with them."""
    import asyncio

    from corrections.quality.recurring import MINIMUM, recurring_decisions
    from corrections.read.entry import read
    from corrections.read.status import Failed
    from learnings.sync.recurring import Recurring

    minimum: int = MINIMUM if options.min_issues is None else options.min_issues
    api_url = options.learnings.remote.api_url or GITHUB_GRAPHQL_URL

    def decisions(owner: str, name: str, token: str, config: Config) -> list[Recurring]:
        outcome = asyncio.run(read(decisions_read(owner, name, config, api_url), token, lambda line: None))
        if isinstance(outcome.status, Failed):
            _say("the corrections could not be read: no recurring decision is proposed this run")
            return []
        found = recurring_decisions(outcome.corrected, minimum)
        _say(f"{len(found)} decision(s) made on at least {minimum} issues, proposed as learnings")
        return [Recurring(decision.decision, decision.issues) for decision in found]

    return learnings_sync.run(replace(options.learnings, recurring=decisions))
