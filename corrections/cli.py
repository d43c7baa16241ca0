"""The `corrections` command: read (the workflow step), demo (the same job, offline), action, quality,
explain, and prompt and marker (corrections/analysis_commands.py).

Exit 0 whenever the analysis can go on, GitHub failures included; 2 for a usage or
configuration error, with one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.files import write_atomic
from assistant.version import VersionAction
from commandline.arguments import REPO_HELP, HelpFormatter, epilog, issue_number
from commandline.notices import Notices
from commandline.repository import RepositoryError, resolve_repository
from commandline.token import MISSING, token_from
from commandline.usage import UsageError
from corrections import analysis_commands, notes
from corrections.output import write_context
from queries.endpoint import GITHUB_GRAPHQL_URL
from queries.retry import DEFAULT_BUDGET, RetryPolicy

if TYPE_CHECKING:
    from assistant.config import Config
    from corrections.job import ReadOutcome
    from corrections.models import AnalysedIssue

DEMO_TOKEN = "demo-token"  # noqa: S105 - the emulator accepts any token; this one is no secret.


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
    # The issue being analysed: the corrections nearest it come first.
    analysed: AnalysedIssue | None = None


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build_options(
    *,
    repo: str | None,
    out: Path,
    config_path: Path | None,
    api_url: str,
    max_analyzed: int | None = None,
    base_ref: str | None = None,
    paths: Sequence[str] = (),
    time_budget: float | None = None,
    remote_config: str | None = None,
    remote_config_required: bool = False,
    analysed: AnalysedIssue | None = None,
) -> ReadOptions:
    """Validated options of one read; raises UsageError with one line naming what is wrong.

    `repo` None: the repository of the checkout's `origin` remote, as gh does. With
    `remote_config` (the action) no local file is read: the configuration at that path is read at
    the base ref through GitHub, and `config_path` must be None.
    """
    from assistant.config_file import ConfigError, read_config_file

    try:
        repository = resolve_repository(repo)
    except RepositoryError as error:
        raise UsageError(str(error)) from error
    try:
        # A missing or malformed file fails here, before pydantic is imported (validation needs it).
        found = None if remote_config is not None else read_config_file(config_path)
        from assistant.config import validate_config, with_values

        config = validate_config(found)
    except ConfigError as error:
        raise UsageError(str(error)) from error
    if max_analyzed is not None:
        try:
            config = with_values(config, "--max-analyzed", "context", {"max_analyzed": max_analyzed})
        except ConfigError as error:
            raise UsageError(str(error)) from error
    if time_budget is not None and time_budget <= 0:
        raise UsageError("--time-budget: must be a positive number of seconds")
    if analysed is not None and analysed.number < 1:
        raise UsageError(f"--issue: expected an issue number, got {analysed.number}")
    return ReadOptions(
        owner=repository.owner,
        name=repository.name,
        out=out,
        config=config,
        api_url=api_url,
        base_ref=base_ref or "HEAD",
        paths=tuple(paths),
        time_budget=time_budget or DEFAULT_BUDGET,
        remote_config=remote_config,
        remote_config_required=remote_config_required,
        max_analyzed=max_analyzed,
        analysed=analysed,
    )


def _options(args: argparse.Namespace) -> ReadOptions:
    options = build_options(
        repo=args.repo,
        out=Path(args.out),
        config_path=Path(args.config) if args.config else None,
        api_url=args.api_url,
        max_analyzed=args.max_analyzed,
        base_ref=args.base_ref,
        paths=args.paths or (),
        time_budget=args.time_budget,
    )
    if args.issue is None:
        return options
    # After the configuration: a configuration error answers before the models are imported.
    from corrections.models import AnalysedIssue

    return replace(options, analysed=AnalysedIssue(number=args.issue))  # issue_number checked it


Say = Callable[[str], None]


async def read_outcome(options: ReadOptions, token: str, log: Say) -> ReadOutcome:
    """Read the window and its corrections; an unexpected error ends as a failed outcome with a note."""
    # The network stack (gql, aiohttp, graphql-core: most of the start-up time) is imported only
    # by a command that reads: --help, --version and configuration errors answer without it.
    from assistant.config import ConfigError
    from corrections.job import ReadOutcome, ReadRequest, read_corrections
    from queries.client import GitHubClient

    request = ReadRequest(
        owner=options.owner,
        name=options.name,
        config=options.config,
        base_ref=options.base_ref,
        config_path=options.remote_config,
        config_required=options.remote_config_required,
        max_analyzed=options.max_analyzed,
        analysed=options.analysed,
    )
    policy = RetryPolicy.for_budget(options.time_budget)
    async with GitHubClient(options.api_url, token, policy=policy) as client:
        try:
            return await read_corrections(client, request, lambda line: log(f"corrections: {line}"))
        except ConfigError:
            raise  # the base branch's configuration: a configuration error, not an internal one
        except Exception:
            import traceback  # only for an internal error

            log(traceback.format_exc())
            outcome = ReadOutcome(
                repository=f"{options.owner}/{options.name}", usage=client.usage, config=options.config
            )
            outcome.failed = True
            outcome.failure = "internal error"
            outcome.note = notes.failed("internal error")
            return outcome


def run_read(
    options: ReadOptions, token: str, *, log: Say = _stderr, say: Notices | None = None
) -> ReadOutcome:
    """Read, render and write the context folder; returns what was read.

    Raises ConfigError when the configuration read at the base ref does not validate.

    `log` receives progress lines (stderr by default); warnings go through `say`, which decides
    how a warning is shown (a workflow command only inside GitHub Actions).
    """
    import asyncio

    notices = say or Notices("corrections")
    started = time.monotonic()
    outcome = asyncio.run(read_outcome(options, token, log))
    # Imported once GitHub has answered: the renderers (jinja2) are not needed to start reading.
    from corrections.context import render_context

    files = render_context(outcome, outcome.config, options.paths)
    written = {**files.top, **{f"issues/{name}": text for name, text in files.issues.items()}}
    write_context(options.out, written)
    outcome.warnings.extend(files.warnings)
    if outcome.failed or (outcome.note and not outcome.off):
        # First, so that it is one of the annotations GitHub shows; one warning, with what to check.
        check = notes.what_to_check(outcome.failure, actions=notices.actions) if outcome.failed else ""
        notices.warning(f"{outcome.note or ''} {check}".strip())
    for warning in outcome.warnings:
        notices.warning(warning)
    notices.close()
    usage = outcome.usage
    log(
        f"corrections: {outcome.repository}: window {len(outcome.window)} issues, "
        f"{len(outcome.corrected)} corrected; {usage.graphql_requests} GraphQL + {usage.rest_requests} REST "
        f"requests ({usage.retries} retries), {usage.points} points, {time.monotonic() - started:.2f} s; "
        + (f"pages shrunk to {outcome.page_sizes.describe()}; " if outcome.page_sizes.shrunk else "")
        + f"wrote {options.out}/corrections.md"
    )
    return outcome


def _add_read_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        default="corrections-context",
        metavar="DIR",
        help="folder for the context files (default: %(default)s)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default: .github/assistant.toml, when it exists)",
    )
    parser.add_argument(
        "--max-analyzed",
        type=int,
        metavar="N",
        help="override [context] max_analyzed, 0 to 100 (default: from the configuration, 30; 0 turns reading off)",
    )
    parser.add_argument(
        "--base-ref", metavar="REF", help="branch whose labels.md and learnings are read (default: HEAD)"
    )
    parser.add_argument(
        "--paths", nargs="*", metavar="PATH", help="changed paths that rank learnings (default: none)"
    )
    parser.add_argument(
        "--time-budget",
        type=float,
        metavar="SECONDS",
        help=f"seconds the reading may take, retries included (default: {DEFAULT_BUDGET:g} s)",
    )
    parser.add_argument(
        "--issue",
        type=issue_number,
        metavar="N",
        help="the issue being analysed: the corrections nearest it (title and body) come first "
        "(default: none, newest first)",
    )


def _add_remote_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--repo", metavar="OWNER/NAME", help=REPO_HELP)
    parser.add_argument(
        "--api-url",
        default=GITHUB_GRAPHQL_URL,
        metavar="URL",
        help="GitHub's GraphQL endpoint (default: %(default)s; the emulator's URL replaces it)",
    )


def _command(
    commands: Any, name: str, summary: str, description: str, *examples: str
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog=epilog(*examples, token=name not in {"demo", "action", *analysis_commands.NAMES}),
        formatter_class=HelpFormatter,
    )
    return parser


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="corrections",
        description="Read maintainers' corrections of the triage assistant from GitHub into prompt "
        "context (read, demo, action), explain them (quality, explain), and serve the analysis "
        "(prompt, marker). Exit 0 whenever the "
        "analysis can go on, GitHub failures included; 2 for a usage or configuration error, with one "
        "line on stderr.",
        epilog=epilog("corrections read --repo octo/demo", "corrections demo"),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="one of:")
    read = _command(
        commands,
        "read",
        "read the corrections of a repository into a context folder",
        "Read the maintainers' corrections of the assistant's first analyses and write corrections.md, "
        "corrections.json, issues/<n>.md and learnings.md into --out. Files of the folder that this "
        "command did not write are never touched.",
        "corrections read --repo octo/demo --out corrections-context",
        "corrections read --repo octo/demo --issue 55   # the corrections nearest issue 55 first",
    )
    _add_remote_arguments(read)
    _add_read_arguments(read)
    demo = _command(
        commands,
        "demo",
        "the whole job against the bundled demo repository, offline",
        "Serve the bundled demo repository with the emulator on loopback and read it, as `read` would "
        "read GitHub. No token and no network needed.",
        "corrections demo --out corrections-demo",
    )
    demo.add_argument(
        "--out",
        default="corrections-demo",
        metavar="DIR",
        help="folder for the context files (default: %(default)s)",
    )
    _command(
        commands,
        "action",
        "the GitHub Action's step: configured by the environment GitHub Actions sets",
        "The step of action.yml: reads GITHUB_REPOSITORY, GITHUB_EVENT_PATH and the INPUT_* variables "
        "that action.yml passes (the token comes from the action's `token` input).",
        "uses: <this action>@v1   (in a workflow; see docs/action.md)",
    )
    quality = _command(
        commands,
        "quality",
        "monthly quality numbers of the first analyses",
        "Count, per month and per label, what the assistant's first analyses proposed and what "
        "maintainers kept, removed or added; write quality.md, quality.json and quality.svg.",
        "corrections quality --repo octo/demo --month 2026-10",
    )
    _add_remote_arguments(quality)
    quality.add_argument(
        "--month", metavar="YYYY-MM", help="the month to detail (default: the latest month read)"
    )
    quality.add_argument(
        "--out",
        default="corrections-quality",
        metavar="DIR",
        help="folder for quality.md/.json/.svg (default: %(default)s)",
    )
    quality.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default: .github/assistant.toml, when it exists)",
    )
    quality.add_argument(
        "--max-analyzed",
        type=int,
        default=100,
        metavar="N",
        help="issues with a first analysis read, at most 100 (default: %(default)s)",
    )
    quality.add_argument(
        "--scan-pages",
        type=int,
        metavar="N",
        help="pages of 100 issues scanned, 1 to 10 (default: [context] scan_pages, 5)",
    )
    quality.add_argument("--base-ref", metavar="REF", help="branch whose labels.md is read (default: HEAD)")
    explain = _command(
        commands,
        "explain",
        "why one issue taught the assistant what it did",
        "Put into words what the rules found on one issue: each label event, the duplicate notice, "
        "the 👎 reactions, and what corrections.md learns from it.",
        "corrections explain '#41' --repo octo/demo",
    )
    explain.add_argument("number", type=issue_number, metavar="N", help="the issue number: 41 or '#41'")
    _add_remote_arguments(explain)
    explain.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default: .github/assistant.toml, when it exists)",
    )
    explain.add_argument("--base-ref", metavar="REF", help="branch whose labels.md is read (default: HEAD)")
    analysis_commands.add_parsers(commands, _command)
    return parser


def _demo(out: Path) -> int:
    import asyncio

    from assistant.config import Config
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
    from corrections.prompt import PROMPT_FILE, assemble_prompt, read_context
    from corrections.prompt_budget import DEFAULT_MAX_CHARS

    prompt = assemble_prompt(read_context(out), issue=None, max_chars=DEFAULT_MAX_CHARS)
    write_atomic(out / PROMPT_FILE, prompt.text)
    _stderr(f"corrections: wrote {out}/{PROMPT_FILE}: {prompt.describe()}")
    _stderr(
        f"corrections: done. Open {out}/corrections.md (and {out}/issues/, {out}/corrections.json, "
        f"{out}/{PROMPT_FILE})"
    )
    return 0 if not outcome.failed else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `corrections` console script."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            return _demo(Path(args.out))
        if args.command in analysis_commands.NAMES:
            return analysis_commands.run(args)
        if args.command == "action":
            from corrections.action import main as action_main

            return action_main()
        token = token_from()
        if args.command in {"quality", "explain"}:
            from corrections import reports

            if not token:
                raise UsageError(MISSING)
            if args.command == "quality":
                return reports.run_quality(args, token)
            return reports.run_explain(args, token)
        options = _options(args)
        if not token and options.config.context.max_analyzed > 0:
            raise UsageError(MISSING)
        run_read(options, token)
        return 0
    except UsageError as error:
        _stderr(f"corrections: error: {error}")
        return 2
