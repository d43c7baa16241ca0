"""Argument types and help text that both command lines share (argparse, no network)."""

from __future__ import annotations

import argparse
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from commandline.token import ENVIRONMENT_HELP

_ISSUE = re.compile(r"^#?([0-9]{1,10})$")
REPO_HELP = (
    "the repository, OWNER/NAME (default: the `origin` remote of the git checkout you are in, "
    "when it is on GitHub)"
)


API_URL_HELP = "GitHub's GraphQL endpoint (default: %(default)s; the emulator's URL replaces it)"


def add_repository_arguments(
    parser: argparse.ArgumentParser,
    *,
    api_url: str | None,
    repo_help: str = REPO_HELP,
    api_url_help: str = API_URL_HELP,
) -> None:
    """`--repo` and `--api-url` (default `api_url`, GitHub's GraphQL endpoint; None: no default, the
    command finds one) of a command that reads GitHub."""
    parser.add_argument("--repo", metavar="OWNER/NAME", help=repo_help)
    parser.add_argument("--api-url", default=api_url, metavar="URL", help=api_url_help)


CONFIG_HELP = "configuration file (default: .github/assistant.toml, when it exists)"


def add_config_argument(
    parser: argparse.ArgumentParser, *, help: str = CONFIG_HELP, metavar: str | None = "FILE"
) -> None:
    """`--config FILE`: the configuration file a command reads (declared here once for every command;
    `metavar` None: argparse's own, `CONFIG`, as `learnings` has always shown it)."""
    parser.add_argument("--config", metavar=metavar, help=help)


def add_base_ref_argument(parser: argparse.ArgumentParser, *, reads: str = "labels.md and learnings") -> None:
    """`--base-ref REF`: the branch whose files (`reads`: one file, or several joined by "and") a
    command reads (declared here once)."""
    verb = "are" if " and " in reads else "is"
    parser.add_argument("--base-ref", metavar="REF", help=f"branch whose {reads} {verb} read (default: HEAD)")


def add_assistant_arguments(parser: argparse.ArgumentParser) -> None:
    """`--assistant-login` and `--assistant-account`: the assistant's account over the configuration's
    `[assistant] login` and `account` (as the action's inputs of the same names)."""
    parser.add_argument(
        "--assistant-login",
        metavar="LOGIN",
        help="the account that posts the analyses, over [assistant] login "
        "(a workflow posting with github.token posts as github-actions)",
    )
    parser.add_argument(
        "--assistant-account",
        choices=("bot", "user"),
        help="that account's type, over [assistant] account",
    )


def issue_number(text: str) -> int:
    """An issue or pull request number as people write it: `41` or `#41`."""
    match = _ISSUE.match(text.strip())
    if match is None or int(match.group(1)) < 1:
        raise argparse.ArgumentTypeError(f"expected an issue number such as 41 or '#41', got {text!r}")
    return int(match.group(1))


def epilog(*examples: str, token: bool = True) -> str:
    """The end of a command's --help: where the token comes from, then examples."""
    lines = [ENVIRONMENT_HELP, ""] if token else []
    lines += ["Example:" if len(examples) == 1 else "Examples:", *[f"  {example}" for example in examples]]
    return "\n".join(lines)


class HelpFormatter(argparse.HelpFormatter):
    """Help wrapped at spaces only (a default like `corrections-context` is never cut at its hyphen);
    lines of a description or epilog that start with two spaces (examples) are kept as written."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False, break_long_words=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        lines: list[str] = []
        for line in text.splitlines():
            if line.startswith("  ") or not line.strip():
                lines.append(indent + line)
                continue
            lines += textwrap.wrap(
                line,
                width,
                initial_indent=indent,
                subsequent_indent=indent,
                break_on_hyphens=False,
                break_long_words=False,
            )
        return "\n".join(lines)


@dataclass(frozen=True)
class RepositoryOptions:
    """The flags every command that reads a repository shares, as given (None: not given):
    `--repo`, `--api-url`, `--config`, `--base-ref`, `--assistant-login`, `--assistant-account`."""

    api_url: str
    repo: str | None = None
    config: Path | None = None
    base_ref: str | None = None
    assistant_login: str | None = None
    assistant_account: str | None = None

    @classmethod
    def options_from(cls, args: argparse.Namespace) -> RepositoryOptions:
        """The shared flags of a command's parsed arguments (each command's `options_from` calls it)."""
        return cls(
            api_url=args.api_url,
            repo=args.repo,
            config=Path(args.config) if args.config else None,
            base_ref=args.base_ref,
            assistant_login=args.assistant_login,
            assistant_account=args.assistant_account,
        )
