"""`corrections backtest --repo O/N --model CMD`: the last first analyses replayed through your
model, with and without the context, scored against what the maintainers left.

Light at import: the read, the model's runs and the scores (corrections/commands/backtest_replay.py)
load when it runs. Exit 0 when the backtest ran, 1 when GitHub could not be read, 2 for a usage error.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from commandline.arguments import (
    RepositoryOptions,
    add_assistant_arguments,
    add_base_ref_argument,
    add_config_argument,
    add_repository_arguments,
)
from commandline.token import required_token
from corrections.commands import SUMMARIES
from queries.defaults import GITHUB_GRAPHQL_URL

NAME = "backtest"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Read the repository once; for each of the last --last first analyses, render the context it "
    "would have been given at its moment, run --model on that prompt (on stdin; its stdout holds "
    "the analysis marker or its JSON) with the context and without it (max_analyzed = 0), and "
    "score both against what the maintainers left on the issue. Answers are cached, so an "
    "interrupted backtest resumes without asking the model again."
)
EXAMPLES = (
    "corrections backtest --repo octo/demo --model 'gh models run openai/gpt-4.1-mini' --last 50",
    "corrections backtest --repo octo/demo --model ./my-model --max-analyzed 10,30,60 --json",
)
TOKEN = True


@dataclass(frozen=True)
class BacktestOptions:
    """The model command (a shell line), how many analyses, the windows (`10,30,60`, None: the
    configured one), the output, the model's instructions and time, where the caches live."""

    shared: RepositoryOptions
    model: str
    last: int = 20
    max_analyzed: str | None = None
    json: bool = False
    instructions: Path | None = None
    timeout: float = 120.0
    state_dir: Path | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repository_arguments(parser, api_url=GITHUB_GRAPHQL_URL)
    add_assistant_arguments(parser)
    parser.add_argument(
        "--model",
        required=True,
        metavar="CMD",
        help="the model command, split like a shell line, run without one",
    )
    parser.add_argument(
        "--last",
        type=int,
        default=20,
        metavar="N",
        help="first analyses replayed, at most 100 (default: %(default)s)",
    )
    parser.add_argument(
        "--max-analyzed",
        metavar="N[,N...]",
        help="windows to try, e.g. 10,30,60 (default: [context] max_analyzed of the configuration)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument(
        "--instructions",
        metavar="FILE",
        help="your instructions to the model (as .github/assistant/instructions.md): the system "
        "prompt starts with them, as the example workflow's does",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="per model call (default: %(default)s)",
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help="where the answers and the permissions read are cached (default: "
        "$XDG_STATE_HOME/correction-reader, else ~/.local/state/correction-reader)",
    )
    add_config_argument(parser)
    add_base_ref_argument(parser)


def options_from(args: argparse.Namespace) -> BacktestOptions:
    return BacktestOptions(
        shared=RepositoryOptions.options_from(args),
        model=args.model,
        last=args.last,
        max_analyzed=args.max_analyzed,
        json=args.json,
        instructions=None if args.instructions is None else Path(args.instructions),
        timeout=args.timeout,
        state_dir=Path(args.state_dir) if args.state_dir else None,
    )


def run(options: BacktestOptions) -> int:
    """Read once, replay the last --last first analyses through --model, print the table or JSON."""
    token = required_token(options.shared.api_url)
    from corrections.commands.backtest_replay import run_backtest

    return run_backtest(
        options.shared,
        token,
        model_line=options.model,
        last=options.last,
        windows=options.max_analyzed,
        json_out=options.json,
        instructions_file=options.instructions,
        timeout=options.timeout,
        state_folder=options.state_dir,
    )
