"""`learnings sync`: the accepted `remember` / `ignore-rule` commands and 👍 proposals since the
last sync into one open pull request against the default branch (never a direct commit).

`corrections sync` declares these options too (`add_arguments`) and runs this command with its
recurring decisions (`SyncOptions.recurring`). What the sync does is in learnings/sync/run.py,
imported once the repository, the token and the configuration are checked (remote.connect).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING

from learnings.commands import SUMMARIES
from learnings.commands.remote import RemoteOptions, add_remote_arguments, positive

if TYPE_CHECKING:
    from learnings.sync.recurring import Decisions

NAME = "sync"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Gather the accepted `remember` / `ignore-rule` commands and 👍 proposals since the last sync "
    "and record them in one open pull request against the default branch (never a direct commit)."
)
EXAMPLES = ("learnings sync --repo octo/demo",)
TOKEN = True
BUDGET = 200


@dataclass(frozen=True)
class SyncOptions:
    """Where and how far to sync; `recurring` (from `corrections sync`): what the sync proposes
    beside the commands, read once the token is known."""

    remote: RemoteOptions
    budget: int = BUDGET
    max_pages: int | None = None
    recurring: Decisions | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The sync's options (`learnings sync`, `corrections sync`): GitHub's, then the budget's."""
    add_remote_arguments(parser)
    parser.add_argument(
        "--budget",
        type=positive,
        default=BUDGET,
        metavar="POINTS",
        help="GraphQL points the run may spend reading; what is left waits for the next run "
        "(default: %(default)s; a workflow token has 1,000 an hour)",
    )
    parser.add_argument(
        "--max-pages",
        type=positive,
        default=None,
        metavar="N",
        help="also stop the scan after N pages (default: only the budget stops it)",
    )


def options_from(args: argparse.Namespace) -> SyncOptions:
    return SyncOptions(remote=RemoteOptions.options_from(args), budget=args.budget, max_pages=args.max_pages)


def run(options: SyncOptions) -> int:
    """Record what was accepted since the last sync in one pull request (and a learning for each
    recurring decision); 0 done or nothing new, 1 the sync failed (one line on stderr)."""
    from learnings.commands.remote import connect, say

    remote = connect(options.remote)
    import asyncio

    from learnings.commands import pacing
    from learnings.sync.run import SyncError, run_sync
    from learnings.sync.run import SyncOptions as RunOptions

    found = options.recurring
    decisions = (
        tuple(found(remote.owner, remote.name, remote.token, remote.config)) if found is not None else ()
    )
    run_options = RunOptions(
        owner=remote.owner,
        name=remote.name,
        api_url=remote.api_url,
        token=remote.token,
        config=remote.config,
        budget=options.budget,
        max_pages=options.max_pages,
        sleep=pacing.PACING.sleep,
        clock=pacing.PACING.clock,
        recurring=decisions,
    )
    try:
        result = asyncio.run(run_sync(run_options))
    except SyncError as error:
        say(f"sync: {error}")
        return 1
    for note in result.notes:
        say(f"sync: note: {note}")
    points = f"{result.points} {'point' if result.points == 1 else 'points'}"
    cost = f"{points} of {options.budget}, {result.requests} requests"
    left = f"; {result.left}" if result.left else ""
    if result.owed:
        left += f"; {result.owed} command(s) still owed an answer (the next run gives them first)"
    if result.outcome == "nothing-new":
        print(f"nothing new to record ({cost}){left}")
        return 0
    count = len(result.recorded)
    print(
        f"recorded {count} {'learning' if count == 1 else 'learnings'} in pull request "
        f"#{result.pull_number}: {result.pull_url}"
    )
    for learning in result.recorded:
        source = learning.source
        thread = (
            f"issue #{source.issue}" if source.issue is not None else f"pull request #{source.pull_request}"
        )
        print(f"  {learning.id} from {thread}, comment {source.comment}, accepted by @{source.accepted_by}")
    print(f"cost: {cost}{left}")
    return 0
