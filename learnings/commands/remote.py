"""What the `learnings` commands that talk to GitHub share: their options, and the checks made
before what talks to GitHub loads.

The token comes from GITHUB_TOKEN, else GH_TOKEN, else `gh auth token` (commandline/token.py),
never from an argument.
Exit status (commandline/usage.py): 0 done (nothing new included; a pull request without memory),
1 GitHub failed or refused, or no such pull request (one line on stderr saying what, nothing left
half-written), 2 a usage or configuration error, 4 no token.

`connect` checks the repository, the token and the configuration (`--config`, else the checkout's
file, as the local commands read it) and raises UsageError: each command's `run` calls it before
it imports what talks to GitHub, so `learnings --help`, `--version`, the local commands and a
usage error start without asyncio, pydantic or the network stack (gql, aiohttp, graphql-core).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING

from commandline.arguments import add_assistant_arguments, add_config_argument, add_repository_arguments
from queries.defaults import GITHUB_GRAPHQL_URL

if TYPE_CHECKING:
    from assistant.config import Config


@dataclass(frozen=True)
class RemoteOptions:
    """`--config`, `--repo`, `--api-url`, `--assistant-login` and `--assistant-account`, as given."""

    config: str | None = None
    repo: str | None = None
    api_url: str = GITHUB_GRAPHQL_URL
    assistant_login: str | None = None
    assistant_account: str | None = None

    @classmethod
    def options_from(cls, args: argparse.Namespace) -> RemoteOptions:
        """The options add_remote_arguments declared, as parsed (each GitHub command's `options_from` calls it)."""
        return cls(
            config=args.config,
            repo=args.repo,
            api_url=args.api_url,
            assistant_login=args.assistant_login,
            assistant_account=args.assistant_account,
        )


def add_remote_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of every command that talks to GitHub, first among its own."""
    add_config_argument(
        parser, help="the configuration file (default: .github/assistant.toml, when it exists)", metavar=None
    )
    add_repository_arguments(parser, api_url=GITHUB_GRAPHQL_URL)
    add_assistant_arguments(parser)


def positive(text: str) -> int:
    """A whole number of at least 1 (an argument type)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


@dataclass(frozen=True)
class Remote:
    """The repository, the token and the configuration a command works with, checked."""

    owner: str
    name: str
    token: str
    config: Config
    api_url: str


def connect(options: RemoteOptions) -> Remote:
    """Check the repository, the token and the configuration (the assistant's options over it);
    raises UsageError, or exits 4 without a token."""
    from assistant.config import ConfigError, assistant_overrides, with_overrides
    from commandline.repository import RepositoryError, resolve_repository
    from commandline.token import required_token
    from commandline.usage import UsageError
    from learnings.store.file import checkout_config

    try:
        repository = resolve_repository(options.repo)
    except RepositoryError as error:
        raise UsageError(str(error)) from error
    token = required_token(options.api_url)
    config = checkout_config(options.config)
    given = {"assistant-login": options.assistant_login, "assistant-account": options.assistant_account}
    try:
        config = with_overrides(config, assistant_overrides(given, option=True))
    except ConfigError as error:
        raise UsageError(str(error)) from error
    return Remote(repository.owner, repository.name, token, config, options.api_url)


def say(line: str) -> None:
    """One line on stderr, as `learnings: ...`."""
    import sys

    print(f"learnings: {line}", file=sys.stderr)
