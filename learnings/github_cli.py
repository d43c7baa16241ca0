"""The subcommands of `learnings` that talk to GitHub: `sync` and `memory show|write`.

The token comes from GITHUB_TOKEN, else GH_TOKEN, else `gh auth token` (commandline/token.py),
never from an argument.
Exit status (commandline/usage.py): 0 done (nothing new included; a pull request without memory),
1 GitHub failed or refused, or no such pull request (one line on stderr saying what, nothing left
half-written), 2 a usage or configuration error, 4 no token.

This module declares their arguments and checks the repository, the token and the configuration;
what they do is in learnings.github_commands, imported only when one runs. So `learnings --help`,
`--version`, the local commands and a usage error start without asyncio, pydantic or the network
stack (gql, aiohttp, graphql-core).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from assistant.config import ASSISTANT_OVERRIDES, ConfigError, assistant_overrides, with_overrides
from commandline.arguments import (
    HelpFormatter,
    add_assistant_arguments,
    add_repository_arguments,
    epilog,
    issue_number,
)
from commandline.token import required_token
from commandline.usage import UsageError
from queries.defaults import GITHUB_GRAPHQL_URL

if TYPE_CHECKING:
    from learnings.sync.recurring import Decisions

NAMES = frozenset({"sync", "memory", "propose"})


def _positive(text: str) -> int:
    """A whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _repository(text: str | None) -> tuple[str, str]:
    from commandline.repository import RepositoryError, resolve_repository

    try:
        repository = resolve_repository(text)
    except RepositoryError as error:
        raise UsageError(str(error)) from error
    return repository.owner, repository.name


def run(args: argparse.Namespace, recurring: Decisions | None = None) -> int:
    """Run `sync`, `propose` or `memory`; a usage or configuration error is raised as UsageError.

    `recurring` (the `corrections sync` command's): what the sync proposes beside the commands.

    The repository, the token and the configuration (`--config`, else the checkout's file, as the
    local commands read it) are checked here, before learnings.github_commands loads what talks to
    GitHub: a usage error answers at once.
    """
    from learnings.store.file import checkout_config

    owner, name = _repository(args.repo)
    token = required_token(args.api_url)
    config = checkout_config(args.config)
    try:
        config = with_overrides(config, assistant_overrides(_assistant_options(args), option=True))
    except ConfigError as error:
        raise UsageError(str(error)) from error
    from learnings import github_commands

    if args.command == "sync":
        return github_commands.sync(args, owner, name, token, config, recurring=recurring)
    if args.command == "propose":
        return github_commands.propose(args, owner, name, token)
    return github_commands.memory(args, owner, name, token, config)


def _assistant_options(args: argparse.Namespace) -> dict[str, str | None]:
    return {name: getattr(args, name.replace("-", "_"), None) for name in ASSISTANT_OVERRIDES}


def remote_arguments() -> argparse.ArgumentParser:
    """The options of every command that talks to GitHub, as a parent parser."""
    remote = argparse.ArgumentParser(add_help=False)
    remote.add_argument(
        "--config",
        help="the configuration file (default: .github/assistant.toml, when it exists)",
    )
    add_repository_arguments(remote, api_url=GITHUB_GRAPHQL_URL)
    add_assistant_arguments(remote)
    return remote


def add_sync_arguments(syncing: argparse.ArgumentParser) -> None:
    """The sync's own options (`learnings sync`, `corrections sync`)."""
    syncing.add_argument(
        "--budget",
        type=_positive,
        default=200,
        metavar="POINTS",
        help="GraphQL points the run may spend reading; what is left waits for the next run "
        "(default: %(default)s; a workflow token has 1,000 an hour)",
    )
    syncing.add_argument(
        "--max-pages",
        type=_positive,
        default=None,
        metavar="N",
        help="also stop the scan after N pages (default: only the budget stops it)",
    )


def add_parsers(commands: Any) -> None:
    """Register `sync`, `propose` and `memory` on the `learnings` parser."""
    remote = remote_arguments()

    def command(
        group: Any, name: str, summary: str, description: str, example: str
    ) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = group.add_parser(
            name,
            parents=[remote],
            help=summary,
            description=description,
            epilog=epilog(example),
            formatter_class=HelpFormatter,
        )
        return parser

    syncing = command(
        commands,
        "sync",
        "commands and 👍 proposals into one learnings pull request",
        "Gather the accepted `remember` / `ignore-rule` commands and 👍 proposals since the last sync "
        "and record them in one open pull request against the default branch (never a direct commit).",
        "learnings sync --repo octo/demo",
    )
    add_sync_arguments(syncing)

    proposing = command(
        commands,
        "propose",
        "post a learning proposal that a pusher's 👍 accepts",
        "Post, as the token's account (the assistant), a comment proposing a learning on an issue or "
        "pull request, in the form `learnings sync` accepts: its text, paths and category shown, "
        "then the hidden marker. It becomes a learning only when someone with push access reacts 👍.",
        'learnings propose --repo octo/demo --on 10 --text "integration tests need TEST_DB_URL" '
        "--paths 'test/**'",
    )
    proposing.add_argument(
        "--on", type=issue_number, required=True, metavar="N", help="the issue or pull request number"
    )
    proposing.add_argument("--text", required=True, help="what to remember, one paragraph")
    proposing.add_argument(
        "--paths", nargs="+", default=[], metavar="GLOB", help="the paths it is about (default: all)"
    )
    proposing.add_argument("--category", default=None, help="the finding category it is about")

    memory = commands.add_parser(
        "memory",
        help="a pull request's memory (the assistant's snapshot)",
        description="Show or write the rolling snapshot the assistant keeps on one pull request.",
        epilog=epilog("learnings memory show --pr 20 --repo octo/demo"),
        formatter_class=HelpFormatter,
    )
    actions = memory.add_subparsers(dest="action", required=True, metavar="ACTION", help="show or write")
    showing = command(
        actions,
        "show",
        "render the memory as a prompt block",
        "Print the pull request's memory as the assistant's prompt block. A pull request without "
        "memory is no error: it says so on stderr and exits 0.",
        "learnings memory show --pr 20 --repo octo/demo",
    )
    showing.add_argument(
        "--pr", type=issue_number, required=True, metavar="N", help="the pull request number"
    )
    showing.add_argument("--json", action="store_true", help="the snapshot as JSON (null when there is none)")
    writing = command(
        actions,
        "write",
        "write the memory from a JSON file",
        "Write the snapshot into the assistant's memory comment on the pull request (added when "
        "there is none). The token must act as the assistant.",
        "learnings memory write --pr 20 --from memory.json --repo octo/demo",
    )
    writing.add_argument(
        "--pr", type=issue_number, required=True, metavar="N", help="the pull request number"
    )
    writing.add_argument(
        "--from", dest="source", required=True, metavar="FILE", help="the snapshot, a JSON file"
    )
