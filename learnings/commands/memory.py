"""`learnings memory show|write`: the rolling snapshot the assistant keeps on one pull request.

`show` prints it as the assistant's prompt block (or JSON); `write` puts a snapshot read from a
JSON file into the assistant's memory comment. The file is read before the network stack loads;
the round trips are learnings/sync/memory_comment.py's.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from commandline.arguments import HelpFormatter, epilog, issue_number
from learnings.commands import SUMMARIES
from learnings.commands.remote import RemoteOptions, add_remote_arguments

if TYPE_CHECKING:
    from learnings.commands.remote import Remote
    from learnings.prompt.pr_memory import PrMemory

NAME = "memory"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = "Show or write the rolling snapshot the assistant keeps on one pull request."
EXAMPLES = ("learnings memory show --pr 20 --repo octo/demo",)
TOKEN = True


@dataclass(frozen=True)
class MemoryOptions:
    """`show` or `write` the memory of pull request `pr`; `json` (show) as JSON; `source` (write)
    the snapshot's file."""

    remote: RemoteOptions
    action: Literal["show", "write"]
    pr: int
    json: bool = False
    source: str | None = None


def _action(actions: Any, name: str, summary: str, description: str, example: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = actions.add_parser(
        name, help=summary, description=description, epilog=epilog(example), formatter_class=HelpFormatter
    )
    add_remote_arguments(parser)
    parser.add_argument("--pr", type=issue_number, required=True, metavar="N", help="the pull request number")
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION", help="show or write")
    showing = _action(
        actions,
        "show",
        "render the memory as a prompt block",
        "Print the pull request's memory as the assistant's prompt block. A pull request without "
        "memory is no error: it says so on stderr and exits 0.",
        "learnings memory show --pr 20 --repo octo/demo",
    )
    showing.add_argument("--json", action="store_true", help="the snapshot as JSON (null when there is none)")
    writing = _action(
        actions,
        "write",
        "write the memory from a JSON file",
        "Write the snapshot into the assistant's memory comment on the pull request (added when "
        "there is none). The token must act as the assistant.",
        "learnings memory write --pr 20 --from memory.json --repo octo/demo",
    )
    writing.add_argument(
        "--from", dest="source", required=True, metavar="FILE", help="the snapshot, a JSON file"
    )


def options_from(args: argparse.Namespace) -> MemoryOptions:
    return MemoryOptions(
        action=args.action,
        pr=args.pr,
        json=getattr(args, "json", False),
        source=getattr(args, "source", None),
        remote=RemoteOptions.options_from(args),
    )


def _read_memory(path: str, number: int) -> PrMemory:
    from pathlib import Path

    from commandline.usage import UsageError
    from learnings.prompt.pr_memory import MemoryFileError, read_file_memory

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


async def _show(options: MemoryOptions, remote: Remote) -> int:
    import sys

    from commandline.notices import Notices
    from learnings.commands.remote import say
    from learnings.prompt.pr_memory import render_memory
    from learnings.sync.memory_comment import load_memory
    from queries.client import GitHubClient
    from queries.errors import NotFound

    async with GitHubClient(remote.api_url, remote.token) as client:
        try:
            pull = await load_memory(
                client, remote.owner, remote.name, options.pr, remote.config.assistant.identity
            )
        except NotFound:
            say(
                f"memory: no pull request #{options.pr} in {remote.owner}/{remote.name} (or the token cannot see it)"
            )
            return 1
    notices = Notices("learnings")
    for warning in pull.found.warnings:
        notices.warning(f"memory: {warning}")
    notices.close()
    if pull.found.memory is None:
        # Not an error: a pull request has no memory until the assistant's first review writes one.
        say(
            f"memory: pull request #{options.pr} has no memory yet: no comment of "
            f"@{remote.config.assistant.login} holds one"
        )
    if options.json:
        memory = pull.found.memory
        print(memory.model_dump_json(indent=2) if memory is not None else "null")
    else:
        sys.stdout.write(render_memory(pull.found.memory, options.pr))
    return 0


async def _write(options: MemoryOptions, remote: Remote, memory: PrMemory) -> int:
    from learnings.commands import pacing
    from learnings.sync.memory_comment import load_memory, save_memory
    from queries.client import GitHubClient
    from queries.retry import RetryPolicy
    from queries.write import Writer

    async with (
        GitHubClient(remote.api_url, remote.token) as client,
        GitHubClient(remote.api_url, remote.token, policy=RetryPolicy(max_attempts=1)) as write_client,
    ):
        identity = remote.config.assistant.identity
        pull = await load_memory(client, remote.owner, remote.name, options.pr, identity)
        writer = Writer(write_client, sleep=pacing.PACING.sleep, clock=pacing.PACING.clock)
        written = await save_memory(writer, pull, memory, identity)
    verb = "updated" if pull.found.comment_id is not None else "added"
    print(f"{verb} the PR memory of pull request #{options.pr} (comment {written.number})")
    return 0


def run(options: MemoryOptions) -> int:
    """Show or write the memory; 0 done (no memory is no error), 1 GitHub failed or no such pull
    request, UsageError for a file that is no snapshot (read before anything is sent)."""
    from learnings.commands.remote import connect, say

    remote = connect(options.remote)
    import asyncio

    from commandline.usage import UsageError
    from learnings.prompt.pr_memory import MemoryMarkerError
    from queries.errors import GitHubError

    try:
        if options.action == "show":
            return asyncio.run(_show(options, remote))
        # A file that is no snapshot answers before the network stack loads.
        if options.source is None:
            raise UsageError("memory write: give --from FILE, the snapshot")
        snapshot = _read_memory(options.source, options.pr)
        return asyncio.run(_write(options, remote, snapshot))
    except MemoryMarkerError as error:
        say(f"memory: {error}")
        return 1
    except GitHubError as error:
        say(f"memory: GitHub failed: {error.category}")
        return 1
