"""`corrections init`: set a repository up, in a checkout of it, with its token.

Light at import: what reads the repository and writes the files (corrections/commands/init_setup.py)
loads when it runs; its exit statuses are said there.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from commandline.arguments import add_repository_arguments
from commandline.token import required_token
from corrections.commands import SUMMARIES
from queries.defaults import GITHUB_GRAPHQL_URL

NAME = "init"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "In a checkout of your repository: write .github/assistant/labels.md from the repository's own "
    "labels and their descriptions, .github/assistant/instructions.md from the sample, and the "
    "workflows of the first analysis, the weekly learnings sync and the monthly report under "
    ".github/workflows/; check the token, the labels and whether GitHub Actions may open pull "
    "requests; print the next steps. A file that exists is never replaced without --force (the "
    "difference is shown instead); no symbolic link is followed. Exit status 1 when a file was "
    "left as it was."
)
EXAMPLES = ("corrections init", "corrections init --engine claude --repo octo/demo")
TOKEN = True


@dataclass(frozen=True)
class InitOptions:
    """The engine of the first analysis, the repository (None: the checkout's), and --force."""

    api_url: str = GITHUB_GRAPHQL_URL
    engine: str = "models"
    repo: str | None = None
    force: bool = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        choices=("models", "claude", "openai"),
        default="models",
        help="the model of the first analysis: GitHub Models, Claude or an OpenAI-compatible API "
        "(default: %(default)s)",
    )
    add_repository_arguments(parser, api_url=GITHUB_GRAPHQL_URL)
    parser.add_argument(
        "--force", action="store_true", help="replace files that differ (default: show the difference)"
    )


def options_from(args: argparse.Namespace) -> InitOptions:
    return InitOptions(api_url=args.api_url, engine=args.engine, repo=args.repo, force=args.force)


def run(options: InitOptions) -> int:
    """Set the checkout up for the repository (corrections/commands/init_setup.py)."""
    token = required_token(options.api_url)
    from corrections.commands.init_setup import run_init

    return run_init(
        token, api_url=options.api_url, engine=options.engine, repo=options.repo, force=options.force
    )
