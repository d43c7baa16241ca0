"""The `corrections` command: read (the workflow step) and demo (the same job, offline).

Exit 0 whenever the analysis can go on, GitHub failures included; 2 for a usage or
configuration error, with one line on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from corrections import notes
from corrections.config import Config, ConfigError, load_config
from corrections.job import ReadOutcome, ReadRequest, read_corrections
from corrections.output import write_atomic, write_folder
from corrections.workflow import escape_data
from queries.client import GITHUB_GRAPHQL_URL, GitHubClient
from queries.retry import DEFAULT_BUDGET, RetryPolicy

_REPOSITORY = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})$")
MAX_WARNINGS = 50
OPTIONAL_FILES = frozenset({"learnings.md"})
DEMO_TOKEN = "demo-token"  # noqa: S105 - the emulator accepts any token; this one is no secret.


class UsageError(Exception):
    """Bad arguments or configuration; the message is one line."""


@dataclass(frozen=True)
class ReadOptions:
    """Everything `corrections read` needs besides the token."""

    owner: str
    name: str
    out: Path
    config: Config
    api_url: str
    base_ref: str
    paths: tuple[str, ...]
    time_budget: float
    # The action: the configuration's path in the repository, read at base_ref through GitHub
    # (never from the workspace); `config` then holds the defaults and the inputs only.
    remote_config: str | None = None
    remote_config_required: bool = False  # named by the input: it must exist at the base ref
    max_analyzed: int | None = None  # the input, applied over the configuration read


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def parse_repository(value: str) -> tuple[str, str]:
    """OWNER and NAME of `OWNER/NAME`; raises UsageError for anything else."""
    match = _REPOSITORY.match(value)
    if match is None:
        raise UsageError(f"--repo: expected OWNER/NAME, got {value!r}")
    return match.group(1), match.group(2)


def build_options(
    *,
    repo: str,
    out: Path,
    config_path: Path | None,
    api_url: str,
    max_analyzed: int | None = None,
    base_ref: str | None = None,
    paths: Sequence[str] = (),
    time_budget: float | None = None,
    remote_config: str | None = None,
    remote_config_required: bool = False,
) -> ReadOptions:
    """Validated options of one read; raises UsageError with one line naming what is wrong.

    With `remote_config` (the action) no local file is read: the configuration at that path is
    read at the base ref through GitHub, and `config_path` must be None.
    """
    try:
        config = Config() if remote_config is not None else load_config(config_path)
    except ConfigError as error:
        raise UsageError(str(error)) from error
    if max_analyzed is not None:
        if not 0 <= max_analyzed <= 100:
            raise UsageError(f"--max-analyzed: must be between 0 and 100, got {max_analyzed}")
        context = config.context.model_copy(update={"max_analyzed": max_analyzed})
        config = config.model_copy(update={"context": context})
    if time_budget is not None and time_budget <= 0:
        raise UsageError("--time-budget: must be a positive number of seconds")
    owner, name = parse_repository(repo)
    return ReadOptions(
        owner=owner,
        name=name,
        out=out,
        config=config,
        api_url=api_url,
        base_ref=base_ref or "HEAD",
        paths=tuple(paths),
        time_budget=time_budget or DEFAULT_BUDGET,
        remote_config=remote_config,
        remote_config_required=remote_config_required,
        max_analyzed=max_analyzed,
    )


def _options(args: argparse.Namespace) -> ReadOptions:
    return build_options(
        repo=args.repo,
        out=Path(args.out),
        config_path=Path(args.config) if args.config else None,
        api_url=args.api_url,
        max_analyzed=args.max_analyzed,
        base_ref=args.base_ref,
        paths=args.paths or (),
        time_budget=args.time_budget,
    )


Say = Callable[[str], None]


async def read_outcome(options: ReadOptions, token: str, log: Say) -> ReadOutcome:
    """Read the window and its corrections; an unexpected error ends as a failed outcome with a note."""
    request = ReadRequest(
        owner=options.owner,
        name=options.name,
        config=options.config,
        base_ref=options.base_ref,
        config_path=options.remote_config,
        config_required=options.remote_config_required,
        max_analyzed=options.max_analyzed,
    )
    policy = RetryPolicy.for_budget(options.time_budget)
    async with GitHubClient(options.api_url, token, policy=policy) as client:
        try:
            return await read_corrections(client, request, lambda line: log(f"corrections: {line}"))
        except ConfigError:
            raise  # the base branch's configuration: a configuration error, not an internal one
        except Exception:
            log(traceback.format_exc())
            outcome = ReadOutcome(
                repository=f"{options.owner}/{options.name}", usage=client.usage, config=options.config
            )
            outcome.failed = True
            outcome.note = notes.failed("internal error")
            return outcome


def _warn_on_stderr(warning: str) -> None:
    _stderr(f"corrections: warning: {warning}")


def run_read(
    options: ReadOptions, token: str, *, log: Say = _stderr, warn: Say = _warn_on_stderr
) -> ReadOutcome:
    """Read, render and write the context folder; returns what was read.

    Raises ConfigError when the configuration read at the base ref does not validate.

    `log` receives progress lines and `warn` each warning (the action turns them into workflow
    commands); both default to stderr.
    """
    started = time.monotonic()
    outcome = asyncio.run(read_outcome(options, token, log))
    # Imported once GitHub has answered: the renderers (jinja2) are not needed to start reading.
    from corrections.context import render_context

    files = render_context(outcome, outcome.config, options.paths)
    write_folder(options.out / "issues", files.issues)
    for name, text in files.top.items():
        write_atomic(options.out / name, text)
    for name in OPTIONAL_FILES - set(files.top):
        # Nothing of an earlier run may stay beside this run's files.
        (options.out / name).unlink(missing_ok=True)
    outcome.warnings.extend(files.warnings)
    for warning in outcome.warnings[:MAX_WARNINGS]:
        warn(warning)
    if len(outcome.warnings) > MAX_WARNINGS:
        # A hostile learnings file may hold a million bad lines: the log stays readable.
        warn(f"{len(outcome.warnings) - MAX_WARNINGS} more warnings not shown")
    if outcome.failed or (outcome.note and not outcome.off):
        # A GitHub Actions workflow command: shown on the run's summary page.
        print(f"::warning title=corrections::{escape_data(outcome.note or '')}", flush=True)
    usage = outcome.usage
    log(
        f"corrections: {outcome.repository}: window {len(outcome.window)} issues, "
        f"{len(outcome.corrected)} corrected; {usage.graphql_requests} GraphQL + {usage.rest_requests} REST "
        f"requests ({usage.retries} retries), {usage.points} points, {time.monotonic() - started:.2f} s; "
        f"wrote {options.out}/corrections.md"
    )
    return outcome


def _add_read_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="corrections-context", help="folder for the context files")
    parser.add_argument("--config", help="configuration file (default .github/assistant.toml when present)")
    parser.add_argument(
        "--max-analyzed", type=int, help="override [context] max_analyzed (0 turns reading off)"
    )
    parser.add_argument("--base-ref", help="branch whose labels.md and learnings are read (default: HEAD)")
    parser.add_argument("--paths", nargs="*", help="changed paths that rank learnings")
    parser.add_argument("--time-budget", type=float, help="seconds the reading may take, retries included")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="corrections", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    read = commands.add_parser("read", help="read the corrections of a repository into a context folder")
    read.add_argument("--repo", required=True, help="OWNER/NAME")
    read.add_argument("--api-url", default=GITHUB_GRAPHQL_URL, help="GraphQL endpoint")
    _add_read_arguments(read)
    demo = commands.add_parser("demo", help="the whole job against the bundled demo repository, offline")
    demo.add_argument("--out", default="corrections-demo", help="folder for the context files")
    commands.add_parser(
        "action", help="the GitHub Action's step: configured by the environment GitHub Actions sets"
    )
    quality = commands.add_parser("quality", help="monthly quality numbers of the first analyses")
    quality.add_argument("--repo", required=True, help="OWNER/NAME")
    quality.add_argument("--month", help="YYYY-MM to detail (default: the latest month read)")
    quality.add_argument("--out", default="corrections-quality", help="folder for quality.md/.json/.svg")
    quality.add_argument("--api-url", default=GITHUB_GRAPHQL_URL, help="GraphQL endpoint")
    quality.add_argument("--config", help="configuration file (default .github/assistant.toml when present)")
    quality.add_argument(
        "--max-analyzed", type=int, default=100, help="issues with a first analysis read (at most 100)"
    )
    quality.add_argument(
        "--scan-pages", type=int, help="pages of 100 issues scanned (default [context] scan_pages)"
    )
    quality.add_argument("--base-ref", help="branch whose labels.md is read (default: HEAD)")
    explain = commands.add_parser("explain", help="why one issue taught the assistant what it did")
    explain.add_argument("number", type=int, help="issue number")
    explain.add_argument("--repo", required=True, help="OWNER/NAME")
    explain.add_argument("--api-url", default=GITHUB_GRAPHQL_URL, help="GraphQL endpoint")
    explain.add_argument("--config", help="configuration file (default .github/assistant.toml when present)")
    explain.add_argument("--base-ref", help="branch whose labels.md is read (default: HEAD)")
    return parser


def _demo(out: Path) -> int:
    from emulator import serve  # the demo alone needs the emulator
    from emulator.worlds import demo_world_path

    async def main() -> ReadOutcome:
        async with serve(demo_world_path()) as server:
            _stderr(f"corrections: demo repository octo/demo served by the emulator at {server.url}")
            options = ReadOptions(
                owner="octo",
                name="demo",
                out=out,
                config=Config(),
                api_url=server.url,
                base_ref="HEAD",
                paths=("src/demo/sync/engine.py",),  # as if a change touched the sync engine
                time_budget=30.0,
            )
            return await asyncio.to_thread(run_read, options, DEMO_TOKEN)

    outcome = asyncio.run(main())
    _stderr(f"corrections: done. Open {out}/corrections.md (and {out}/issues/, {out}/corrections.json)")
    return 0 if not outcome.failed else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `corrections` console script."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            return _demo(Path(args.out))
        if args.command == "action":
            from corrections.action import main as action_main

            return action_main()
        token = os.environ.get("GITHUB_TOKEN", "")
        if args.command in {"quality", "explain"}:
            from corrections import reports

            if not token:
                raise UsageError("GITHUB_TOKEN is not set: the token comes from the environment")
            if args.command == "quality":
                return reports.run_quality(args, token)
            return reports.run_explain(args, token)
        options = _options(args)
        if not token and options.config.context.max_analyzed > 0:
            raise UsageError("GITHUB_TOKEN is not set: the token comes from the environment")
        run_read(options, token)
        return 0
    except UsageError as error:
        _stderr(f"corrections: error: {error}")
        return 2
