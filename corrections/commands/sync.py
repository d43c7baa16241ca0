"""`corrections sync`: `learnings sync`, and in its pull request a learning proposed for each
decision maintainers made again and again.

The command layer composes both halves (learnings may not import corrections): the corrections
are read as `corrections read` reads them (the widest window, 100 analyses), the decisions found
by the corrections' own rules (corrections/quality/recurring.py), and the sync records them in its
one pull request beside the accepted commands and proposals: merging that pull request is the
review, nothing reaches the default branch before. A read that fails leaves the proposals out
with a note; the commands and proposals are still recorded.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import replace

from assistant.config import Config
from corrections.quality.recurring import MINIMUM, recurring_decisions
from corrections.read.entry import read
from corrections.read.options import ReadOptions
from corrections.read.status import Failed
from learnings.commands import sync
from learnings.sync.recurring import Recurring
from queries.defaults import GITHUB_GRAPHQL_URL

# The widest window: a habit of the maintainers shows over more than the prompt's 30 analyses.
WINDOW = 100


def _say(line: str) -> None:
    print(f"corrections: sync: {line}", file=sys.stderr)


def run_sync_command(args: argparse.Namespace) -> int:
    """Read the recurring decisions, then run the sync with them."""
    minimum: int = MINIMUM if args.min_issues is None else args.min_issues

    def decisions(owner: str, name: str, token: str, config: Config) -> list[Recurring]:
        options = ReadOptions(
            owner=owner,
            name=name,
            config=config,
            api_url=args.api_url or GITHUB_GRAPHQL_URL,
            max_analyzed=WINDOW,
        )
        outcome = asyncio.run(read(options, token, lambda line: None))
        if isinstance(outcome.status, Failed):
            _say("the corrections could not be read: no recurring decision is proposed this run")
            return []
        found = recurring_decisions(outcome.corrected, minimum)
        _say(f"{len(found)} decision(s) made on at least {minimum} issues, proposed as learnings")
        return [Recurring(decision.decision, decision.issues) for decision in found]

    return sync.run(replace(sync.options_from(args), recurring=decisions))
