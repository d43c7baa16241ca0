"""The `corrections` command: its arguments, and which module runs each subcommand.

read (corrections/commands/read.py, the core the action's step shares), demo (corrections/commands/demo.py, the
same job offline), action (corrections/commands/action.py), quality and explain (corrections/commands/reports.py),
prompt and marker (corrections/commands/analysis.py), init (corrections/commands/init.py).

Exit status as gh has it (commandline/usage.py): 0 done, 1 a failure (GitHub failed, not found,
bad credentials), 2 a usage or configuration error, 4 no token; inside GitHub Actions a GitHub
failure of `read` exits 0 (the context says what could not be read).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from assistant.files import UnsafePath
from assistant.suggest import Parser
from assistant.version import VersionAction
from commandline.arguments import (
    HelpFormatter,
    add_assistant_arguments,
    add_repository_arguments,
    epilog,
    issue_number,
)
from commandline.notices import in_actions
from commandline.process import exit_now
from commandline.token import required_token, token_from
from commandline.usage import DONE, FAILED, UsageError, status_of
from corrections.commands import analysis
from queries.defaults import DEFAULT_BUDGET, GITHUB_GRAPHQL_URL

if TYPE_CHECKING:
    from corrections.read.options import ReadOptions

# Only what builds the parser is imported above: --help, --version and `marker` answer without
# the options, the reader or anything they import (each command imports its own module).


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _options(args: argparse.Namespace) -> ReadOptions:
    from corrections.read.analysed import AnalysedIssue
    from corrections.read.options import build_options, option_overrides, parse_moment

    options = build_options(
        repo=args.repo,
        out=Path(args.out),
        config_path=Path(args.config) if args.config else None,
        api_url=args.api_url,
        max_analyzed=args.max_analyzed,
        base_ref=args.base_ref,
        paths=args.paths or (),
        time_budget=args.time_budget,
        overrides=option_overrides(args),
    )
    if args.as_of is not None:
        options = replace(options, as_of=parse_moment("--as-of", args.as_of))
    if args.issue is None:
        return options
    return replace(options, analysed=AnalysedIssue(number=args.issue))  # issue_number checked it


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


def _command(
    commands: Any, name: str, summary: str, description: str, *examples: str
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog=epilog(*examples, token=name not in {"demo", "action", *analysis.NAMES}),
        formatter_class=HelpFormatter,
    )
    return parser


def _sync_parser(commands: Any) -> None:
    from learnings.commands import sync

    syncing: argparse.ArgumentParser = commands.add_parser(
        "sync",
        help="learnings sync, with a learning proposed for each decision made again and again",
        description="Run `learnings sync` (the accepted commands and 👍 proposals into one pull "
        "request) and propose in that pull request a learning for each decision maintainers made "
        "on several issues (the same labels removed and added, the same duplicate notice objected "
        "to), each with the issues behind it. Merging the pull request is the review.",
        epilog=epilog("corrections sync --repo octo/demo"),
        formatter_class=HelpFormatter,
    )
    sync.add_arguments(syncing)
    syncing.add_argument(
        "--min-issues",
        type=int,
        metavar="N",
        help="propose a decision made on at least N issues (default: 3, chosen by measurement)",
    )


def _parser() -> Parser:
    parser = Parser(
        prog="corrections",
        description="Read maintainers' corrections of the triage assistant from GitHub into prompt "
        "context (read, demo, action), explain them (quality, explain), and serve the analysis "
        "(prompt, marker). Exit status as gh's: 0 done, 1 a failure (GitHub failed, not found, bad "
        "credentials), 2 a usage or configuration error (one line on stderr), 4 no token; inside GitHub "
        "Actions a GitHub failure of `read` exits 0 (the context says what could not be read).",
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
        "corrections read --repo octo/demo --as-of 2026-10-01   # the context a first analysis then had",
    )
    add_repository_arguments(read, api_url=GITHUB_GRAPHQL_URL)
    _add_read_arguments(read)
    read.add_argument(
        "--as-of",
        metavar="TIME",
        help="the context a first analysis at TIME (ISO 8601; UTC unless it says) would have had, from "
        "one read of today's timelines: events from TIME on are left out; permissions, titles, "
        "labels.md and learnings are as they are now (default: now)",
    )
    add_assistant_arguments(read)
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
    add_repository_arguments(quality, api_url=GITHUB_GRAPHQL_URL)
    quality.add_argument(
        "--month",
        metavar="YYYY-MM",
        help="the month to detail, counting every first analysis of it within --budget "
        "(default: the latest month read by a window of --max-analyzed)",
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
        "--budget",
        type=int,
        metavar="POINTS",
        help="with --month: GraphQL points the read may spend; the report says which part of the month "
        "it covers when the budget ends it first (default: 100)",
    )
    quality.add_argument(
        "--max-analyzed",
        type=int,
        metavar="N",
        help="without --month: issues with a first analysis read, at most 100 (default: 100)",
    )
    quality.add_argument(
        "--scan-pages",
        type=int,
        metavar="N",
        help="without --month: pages of 100 issues scanned, 1 to 10 (default: [context] scan_pages, 5)",
    )
    quality.add_argument("--base-ref", metavar="REF", help="branch whose labels.md is read (default: HEAD)")
    quality.add_argument(
        "--time-budget",
        type=float,
        metavar="SECONDS",
        help=f"seconds the reading may take, retries included (default: {DEFAULT_BUDGET:g} s)",
    )
    add_assistant_arguments(quality)
    explain = _command(
        commands,
        "explain",
        "why one issue taught the assistant what it did",
        "Put into words what the rules found on one issue: each label event, the duplicate notice, "
        "the 👎 reactions, and what corrections.md learns from it.",
        "corrections explain '#41' --repo octo/demo",
    )
    explain.add_argument("number", type=issue_number, metavar="N", help="the issue number: 41 or '#41'")
    add_repository_arguments(explain, api_url=GITHUB_GRAPHQL_URL)
    explain.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default: .github/assistant.toml, when it exists)",
    )
    explain.add_argument("--base-ref", metavar="REF", help="branch whose labels.md is read (default: HEAD)")
    backtest = _command(
        commands,
        "backtest",
        "replay the last first analyses through your model, with and without the context",
        "Read the repository once; for each of the last --last first analyses, render the context it "
        "would have been given at its moment, run --model on that prompt (on stdin; its stdout holds "
        "the analysis marker or its JSON) with the context and without it (max_analyzed = 0), and "
        "score both against what the maintainers left on the issue. Answers are cached, so an "
        "interrupted backtest resumes without asking the model again.",
        "corrections backtest --repo octo/demo --model 'gh models run openai/gpt-4.1-mini' --last 50",
        "corrections backtest --repo octo/demo --model ./my-model --max-analyzed 10,30,60 --json",
    )
    add_repository_arguments(backtest, api_url=GITHUB_GRAPHQL_URL)
    add_assistant_arguments(backtest)
    backtest.add_argument(
        "--model",
        required=True,
        metavar="CMD",
        help="the model command, split like a shell line, run without one",
    )
    backtest.add_argument(
        "--last",
        type=int,
        default=20,
        metavar="N",
        help="first analyses replayed, at most 100 (default: %(default)s)",
    )
    backtest.add_argument(
        "--max-analyzed",
        metavar="N[,N...]",
        help="windows to try, e.g. 10,30,60 (default: [context] max_analyzed of the configuration)",
    )
    backtest.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    backtest.add_argument(
        "--instructions",
        metavar="FILE",
        help="your instructions to the model (as .github/assistant/instructions.md): the system "
        "prompt starts with them, as the example workflow's does",
    )
    backtest.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="per model call (default: %(default)s)",
    )
    backtest.add_argument(
        "--state-dir",
        metavar="DIR",
        help="where the answers and the permissions read are cached (default: "
        "$XDG_STATE_HOME/correction-reader, else ~/.local/state/correction-reader)",
    )
    backtest.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default: .github/assistant.toml, when it exists)",
    )
    backtest.add_argument(
        "--base-ref", metavar="REF", help="branch whose labels.md and learnings are read (default: HEAD)"
    )
    add_assistant_arguments(explain)
    init = _command(
        commands,
        "init",
        "set your repository up: labels.md, instructions.md and the workflows, checked",
        "In a checkout of your repository: write .github/assistant/labels.md from the repository's own "
        "labels and their descriptions, .github/assistant/instructions.md from the sample, and the "
        "workflows of the first analysis, the weekly learnings sync and the monthly report under "
        ".github/workflows/; check the token, the labels and whether GitHub Actions may open pull "
        "requests; print the next steps. A file that exists is never replaced without --force (the "
        "difference is shown instead); no symbolic link is followed. Exit status 1 when a file was "
        "left as it was.",
        "corrections init",
        "corrections init --engine claude --repo octo/demo",
    )
    init.add_argument(
        "--engine",
        choices=("models", "claude", "openai"),
        default="models",
        help="the model of the first analysis: GitHub Models, Claude or an OpenAI-compatible API "
        "(default: %(default)s)",
    )
    add_repository_arguments(init, api_url=GITHUB_GRAPHQL_URL)
    init.add_argument(
        "--force", action="store_true", help="replace files that differ (default: show the difference)"
    )
    _sync_parser(commands)
    analysis.add_parsers(commands, _command)
    return parser


def entry() -> NoReturn:
    """The `corrections` console script and `python -m corrections`: `main`, then leave at once."""
    exit_now(main())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `corrections` console script."""
    args = _parser().parse(argv)
    try:
        if args.command == "demo":
            from corrections.commands.demo import run_demo  # the demo alone needs the emulator

            return run_demo(Path(args.out))
        if args.command in analysis.NAMES:
            return analysis.run(args)
        if args.command == "action":
            from corrections.commands.action import main as action_main

            return action_main()
        if args.command == "init":
            from corrections.commands.init import run_init

            return run_init(args, required_token(args.api_url))
        if args.command == "sync":
            from corrections.commands.sync import run_sync_command

            return run_sync_command(args)
        if args.command == "backtest":
            from corrections.commands.backtest import run_backtest

            return run_backtest(args, required_token(args.api_url))
        if args.command in {"quality", "explain"}:
            from corrections.commands import reports

            token = required_token(args.api_url)
            if args.command == "quality":
                return reports.run_quality(args, token)
            return reports.run_explain(args, token)
        options = _options(args)
        token = token_from() if options.reading_off else required_token(args.api_url)
        from corrections.commands.read import run_read
        from corrections.read.status import Failed

        outcome = run_read(options, token).outcome
        # Inside Actions the analysis goes on without the corrections (the context says why).
        return FAILED if isinstance(outcome.status, Failed) and not in_actions() else DONE
    except UsageError as error:
        _stderr(f"corrections: error: {error}")
        return status_of(error)
    except UnsafePath as error:
        _stderr(f"corrections: error: {error}")
        return FAILED
