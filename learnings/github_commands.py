"""What `learnings sync` and `learnings memory show|write` do, once learnings.github_cli has checked
the repository, the token and the configuration.

Imported only when one of them runs, with what they need (asyncio, pydantic and the network
stack: gql, aiohttp and graphql-core), once the token is found. Exit status as in
learnings.github_cli; a UsageError goes up to the command line, which prints it and exits 2.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.config import Config
from commandline.notices import Notices
from commandline.usage import UsageError
from learnings.prompt.pr_memory import (
    MemoryFileError,
    MemoryMarkerError,
    PrMemory,
    read_file_memory,
    render_memory,
)
from learnings.sync.memory_comment import load_memory, save_memory
from learnings.sync.propose import ProposeError, proposal_body
from learnings.sync.propose import propose as post_proposal
from learnings.sync.recurring import Decisions
from learnings.sync.run import SyncError, SyncOptions, run_sync
from queries.client import GitHubClient
from queries.errors import GitHubError, NotFound
from queries.retry import RetryPolicy
from queries.write import Writer


@dataclass(frozen=True)
class Pacing:
    """How mutations wait for each other (replaced in tests so they do not sleep)."""

    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep
    clock: Callable[[], float] = time.monotonic


PACING = Pacing()


def _say(line: str) -> None:
    print(f"learnings: {line}", file=sys.stderr)


def sync(
    args: argparse.Namespace,
    owner: str,
    name: str,
    token: str,
    config: Config,
    *,
    recurring: Decisions | None = None,
) -> int:
    """`learnings sync`: record what was accepted since the last sync in one pull request (and,
    from `corrections sync`, a learning for each `recurring` decision)."""
    decisions = tuple(recurring(owner, name, token, config)) if recurring is not None else ()
    options = SyncOptions(
        owner=owner,
        name=name,
        api_url=args.api_url,
        token=token,
        config=config,
        budget=args.budget,
        max_pages=args.max_pages,
        sleep=PACING.sleep,
        clock=PACING.clock,
        recurring=decisions,
    )
    try:
        result = asyncio.run(run_sync(options))
    except SyncError as error:
        _say(f"sync: {error}")
        return 1
    for note in result.notes:
        _say(f"sync: note: {note}")
    cost = f"{result.points} {'point' if result.points == 1 else 'points'} of {args.budget}, {result.requests} requests"
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


async def _show(args: argparse.Namespace, owner: str, name: str, token: str, config: Config) -> int:
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
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise UsageError(f"{path}: file not found") from error
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: not a JSON file: {error}") from error
    try:
        return read_file_memory(text, number)
    except MemoryFileError as error:
        raise UsageError(f"{path}: {error}") from error


async def _write(
    args: argparse.Namespace, owner: str, name: str, token: str, config: Config, *, memory: PrMemory
) -> int:
    async with (
        GitHubClient(args.api_url, token) as client,
        GitHubClient(args.api_url, token, policy=RetryPolicy(max_attempts=1)) as write_client,
    ):
        pull = await load_memory(client, owner, name, args.pr, config.assistant.identity)
        writer = Writer(write_client, sleep=PACING.sleep, clock=PACING.clock)
        written = await save_memory(writer, pull, memory, config.assistant.identity)
    verb = "updated" if pull.found.comment_id is not None else "added"
    print(f"{verb} the PR memory of pull request #{args.pr} (comment {written.number})")
    return 0


def memory(args: argparse.Namespace, owner: str, name: str, token: str, config: Config) -> int:
    """`learnings memory show|write`: one pull request's memory; `write` reads its file first."""
    try:
        if args.action == "show":
            return asyncio.run(_show(args, owner, name, token, config))
        # A file that is no snapshot answers before the network stack loads.
        snapshot = _read_memory(args.source, args.pr)
        return asyncio.run(_write(args, owner, name, token, config, memory=snapshot))
    except MemoryMarkerError as error:
        _say(f"memory: {error}")
        return 1
    except GitHubError as error:
        _say(f"memory: GitHub failed: {error.category}")
        return 1


def propose(args: argparse.Namespace, owner: str, name: str, token: str) -> int:
    """`learnings propose`: post one learning proposal comment; a proposal that could never count
    is a usage error, before anything is sent."""
    try:
        body = proposal_body(args.text, args.paths, args.category)
    except ProposeError as error:
        raise UsageError(f"propose: {error}") from error

    async def post() -> int:
        async with (
            GitHubClient(args.api_url, token) as client,
            GitHubClient(args.api_url, token, policy=RetryPolicy(max_attempts=1)) as write_client,
        ):
            writer = Writer(write_client, sleep=PACING.sleep, clock=PACING.clock)
            created = await post_proposal(client, writer, (owner, name), args.on, body)
        print(f"proposed on #{args.on} (comment {created.number}); a pusher's 👍 accepts it")
        return 0

    try:
        return asyncio.run(post())
    except GitHubError as error:
        _say(f"propose: could not comment on #{args.on} of {owner}/{name}: {error.category}")
        return 1
