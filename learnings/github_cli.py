"""The subcommands of `learnings` that talk to GitHub: `sync` and `memory show|write`.

The token comes from the environment (GITHUB_TOKEN, else GH_TOKEN), never from an argument.
Exit status: 0 done (nothing new included; a pull request without memory), 1 GitHub failed or
refused, or no such pull request (one line on stderr saying what, nothing left half-written),
2 a usage or configuration error.

The network stack (gql, aiohttp, graphql-core) is imported by the handlers that talk to GitHub,
never at import: `learnings --help`, `--version` and the local commands start without it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from assistant.config import Config
from assistant.validation import validation_problem
from commandline.arguments import HelpFormatter, add_repository_arguments, epilog, issue_number
from commandline.notices import Notices
from commandline.repository import RepositoryError, resolve_repository
from commandline.token import MISSING, token_from
from commandline.usage import UsageError
from learnings.pr_memory import MemoryMarkerError, PrMemory, now_utc, render_memory
from learnings.store_file import checkout_config
from queries.endpoint import GITHUB_GRAPHQL_URL


@dataclass(frozen=True)
class Pacing:
    """How mutations wait for each other (replaced in tests so they do not sleep)."""

    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    clock: Callable[[], float] = time.monotonic


PACING = Pacing()


def _repository(text: str | None) -> tuple[str, str]:
    try:
        repository = resolve_repository(text)
    except RepositoryError as error:
        raise UsageError(str(error)) from error
    return repository.owner, repository.name


def _token() -> str:
    token = token_from()
    if not token:
        raise UsageError(MISSING)
    return token


def _config(args: argparse.Namespace) -> Config:
    """The same configuration the local commands use: `--config`, else the checkout's file."""
    return checkout_config(args.config)


def _say(line: str) -> None:
    print(f"learnings: {line}", file=sys.stderr)


def _guarded(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except UsageError as error:
            _say(str(error))
            return 2

    return run


def _sync(args: argparse.Namespace) -> int:
    from learnings.sync import SyncError, SyncOptions, run_sync

    owner, name = _repository(args.repo)
    options = SyncOptions(
        owner=owner,
        name=name,
        api_url=args.api_url,
        token=_token(),
        config=_config(args),
        max_pages=args.max_pages,
        sleep=PACING.sleep,
        clock=PACING.clock,
    )
    try:
        result = asyncio.run(run_sync(options))
    except SyncError as error:
        _say(f"sync: {error}")
        return 1
    for note in result.notes:
        _say(f"sync: note: {note}")
    if result.outcome == "nothing-new":
        print("nothing new to record")
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
    return 0


async def _show(args: argparse.Namespace, owner: str, name: str, token: str, config: Config) -> int:
    from learnings.pr_memory_github import load_memory
    from queries.client import GitHubClient
    from queries.errors import NotFound

    async with GitHubClient(args.api_url, token) as client:
        try:
            pull = await load_memory(client, owner, name, args.pr, config.assistant.identity)
        except NotFound:
            _say(f"memory: no pull request #{args.pr} in {owner}/{name} (or the token cannot see it)")
            return 1
    say = Notices("learnings")
    for warning in pull.found.warnings:
        say.warning(f"memory: {warning}")
    say.close()
    if pull.found.memory is None:
        # Not an error: a pull request has no memory until the assistant's first review writes one.
        _say(
            f"memory: pull request #{args.pr} has no memory yet: no comment of @{config.assistant.login} "
            "holds one"
        )
    if args.json:
        memory = pull.found.memory
        print(memory.model_dump_json(indent=2) if memory is not None else "null")
    else:
        sys.stdout.write(render_memory(pull.found.memory, args.pr))
    return 0


def _read_memory(path: str, number: int) -> PrMemory:
    try:
        raw: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise UsageError(f"{path}: file not found") from error
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UsageError(f"{path}: not a JSON file: {error}") from error
    if not isinstance(raw, dict):
        raise UsageError(f"{path}: expected a JSON object")
    if raw.setdefault("pull_request", number) != number:
        raise UsageError(f"{path}: the memory is of pull request #{raw['pull_request']}, not #{number}")
    raw.setdefault("updated_at", now_utc().isoformat())
    try:
        return PrMemory.model_validate_json(json.dumps(raw))
    except ValidationError as error:
        raise UsageError(f"{path}: {validation_problem(error)}") from error


async def _write(args: argparse.Namespace, owner: str, name: str, token: str, config: Config) -> int:
    from learnings.pr_memory_github import load_memory, save_memory
    from queries.client import GitHubClient
    from queries.retry import RetryPolicy
    from queries.write import Writer

    memory = _read_memory(args.source, args.pr)
    async with (
        GitHubClient(args.api_url, token) as client,
        GitHubClient(args.api_url, token, policy=RetryPolicy(max_attempts=1)) as write_client,
    ):
        pull = await load_memory(client, owner, name, args.pr, config.assistant.identity)
        writer = Writer(write_client, sleep=PACING.sleep, clock=PACING.clock)
        written = await save_memory(writer, pull, memory)
    verb = "updated" if pull.found.comment_id is not None else "added"
    print(f"{verb} the PR memory of pull request #{args.pr} (comment {written.number})")
    return 0


def _memory(args: argparse.Namespace) -> int:
    from queries.errors import GitHubError

    owner, name = _repository(args.repo)
    token = _token()
    config = _config(args)
    run = _show if args.action == "show" else _write
    try:
        return asyncio.run(run(args, owner, name, token, config))
    except MemoryMarkerError as error:
        _say(f"memory: {error}")
        return 1
    except GitHubError as error:
        _say(f"memory: GitHub failed: {error.category}")
        return 1


def add_parsers(commands: Any) -> None:
    """Register `sync` and `memory` on the `learnings` parser."""
    remote = argparse.ArgumentParser(add_help=False)
    remote.add_argument(
        "--config",
        help="the configuration file (default: .github/assistant.toml, when it exists)",
    )
    add_repository_arguments(remote, api_url=GITHUB_GRAPHQL_URL)

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
    syncing.add_argument(
        "--max-pages",
        type=int,
        default=5,
        metavar="N",
        help="bound on the scan, pages of 30 (default: %(default)s)",
    )
    syncing.set_defaults(handler=_guarded(_sync))

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
    showing.set_defaults(handler=_guarded(_memory))
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
    writing.set_defaults(handler=_guarded(_memory))
