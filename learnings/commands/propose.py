"""`learnings propose`: a learning proposal posted, as the token's account (the assistant), in the
form `learnings sync` accepts once a pusher reacts 👍.

A proposal that could never count is a usage error, before anything is sent; what writes the
comment and posts it is learnings/sync/propose.py.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from commandline.arguments import issue_number
from learnings.commands import SUMMARIES
from learnings.commands.remote import RemoteOptions, add_remote_arguments

NAME = "propose"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Post, as the token's account (the assistant), a comment proposing a learning on an issue or "
    "pull request, in the form `learnings sync` accepts: its text, paths and category shown, "
    "then the hidden marker. It becomes a learning only when someone with push access reacts 👍."
)
EXAMPLES = (
    "learnings propose --repo octo/demo --on 10 --text \"integration tests need TEST_DB_URL\" --paths 'test/**'",
)
TOKEN = True


@dataclass(frozen=True)
class ProposeOptions:
    """Where to propose (`on`: the issue or pull request) and what."""

    remote: RemoteOptions
    on: int
    text: str
    paths: tuple[str, ...] = ()
    category: str | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_remote_arguments(parser)
    parser.add_argument(
        "--on", type=issue_number, required=True, metavar="N", help="the issue or pull request number"
    )
    parser.add_argument("--text", required=True, help="what to remember, one paragraph")
    parser.add_argument(
        "--paths", nargs="+", default=[], metavar="GLOB", help="the paths it is about (default: all)"
    )
    parser.add_argument("--category", default=None, help="the finding category it is about")


def options_from(args: argparse.Namespace) -> ProposeOptions:
    return ProposeOptions(
        on=args.on,
        text=args.text,
        paths=tuple(args.paths),
        category=args.category,
        remote=RemoteOptions.options_from(args),
    )


def run(options: ProposeOptions) -> int:
    """Post the proposal; 0 posted, 1 GitHub refused or failed, UsageError for one that could never count."""
    from learnings.commands.remote import connect, say

    remote = connect(options.remote)
    import asyncio

    from commandline.usage import UsageError
    from learnings.commands import pacing
    from learnings.sync.propose import ProposeError, proposal_body, propose
    from queries.client import GitHubClient
    from queries.errors import GitHubError
    from queries.retry import RetryPolicy
    from queries.write import Writer

    try:
        body = proposal_body(options.text, options.paths, options.category)
    except ProposeError as error:
        raise UsageError(f"propose: {error}") from error

    async def post() -> int:
        async with (
            GitHubClient(remote.api_url, remote.token) as client,
            GitHubClient(remote.api_url, remote.token, policy=RetryPolicy(max_attempts=1)) as write_client,
        ):
            writer = Writer(write_client, sleep=pacing.PACING.sleep, clock=pacing.PACING.clock)
            created = await propose(client, writer, (remote.owner, remote.name), options.on, body)
        print(f"proposed on #{options.on} (comment {created.number}); a pusher's 👍 accepts it")
        return 0

    try:
        return asyncio.run(post())
    except GitHubError as error:
        say(f"propose: could not comment on #{options.on} of {remote.owner}/{remote.name}: {error.category}")
        return 1
