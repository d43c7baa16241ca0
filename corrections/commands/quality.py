"""`corrections quality`: monthly quality numbers of the first analyses (quality.md, .json, .svg).

Reads through the reader's one entry (corrections/read/entry.py) with the variant the numbers
need (learnings.md left out; with `--month`, every analysis since the month began within a points
budget). A failing GitHub is one line and exit 1, bad arguments 2. Light at import: the reader,
the numbers and the renderers load when it runs.
"""

from __future__ import annotations

import argparse
import re
import sys
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
from commandline.usage import UsageError
from corrections.commands import SUMMARIES
from queries.defaults import DEFAULT_BUDGET as DEFAULT_SECONDS
from queries.defaults import GITHUB_GRAPHQL_URL

NAME = "quality"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Count, per month and per label, what the assistant's first analyses proposed and what "
    "maintainers kept, removed or added; write quality.md, quality.json and quality.svg."
)
EXAMPLES = ("corrections quality --repo octo/demo --month 2026-10",)
TOKEN = True

_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
# `--month`'s points budget: a busy month (3,000 issues, 2,535 first analyses) costs 55; a
# workflow token has 1,000 points an hour.
DEFAULT_BUDGET = 100
WINDOW = 100  # the analyses read without --month (`--max-analyzed`)


@dataclass(frozen=True)
class QualityOptions:
    """The repository's shared flags, the month (YYYY-MM, None: the latest read), its points
    budget, or the window without it; where the files go."""

    shared: RepositoryOptions
    month: str | None = None
    out: Path = Path("corrections-quality")
    budget: int | None = None
    max_analyzed: int | None = None
    scan_pages: int | None = None
    time_budget: float | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repository_arguments(parser, api_url=GITHUB_GRAPHQL_URL)
    parser.add_argument(
        "--month",
        metavar="YYYY-MM",
        help="the month to detail, counting every first analysis of it within --budget "
        "(default: the latest month read by a window of --max-analyzed)",
    )
    parser.add_argument(
        "--out",
        default="corrections-quality",
        metavar="DIR",
        help="folder for quality.md/.json/.svg (default: %(default)s)",
    )
    add_config_argument(parser)
    parser.add_argument(
        "--budget",
        type=int,
        metavar="POINTS",
        help="with --month: GraphQL points the read may spend; the report says which part of the month "
        "it covers when the budget ends it first (default: 100)",
    )
    parser.add_argument(
        "--max-analyzed",
        type=int,
        metavar="N",
        help="without --month: issues with a first analysis read, at most 100 (default: 100)",
    )
    parser.add_argument(
        "--scan-pages",
        type=int,
        metavar="N",
        help="without --month: pages of 100 issues scanned, 1 to 10 (default: [context] scan_pages, 5)",
    )
    add_base_ref_argument(parser, reads="labels.md")
    parser.add_argument(
        "--time-budget",
        type=float,
        metavar="SECONDS",
        help=f"seconds the reading may take, retries included (default: {DEFAULT_SECONDS:g} s)",
    )
    add_assistant_arguments(parser)


def options_from(args: argparse.Namespace) -> QualityOptions:
    return QualityOptions(
        shared=RepositoryOptions.options_from(args),
        month=args.month,
        out=Path(args.out),
        budget=args.budget,
        max_analyzed=args.max_analyzed,
        scan_pages=args.scan_pages,
        time_budget=args.time_budget,
    )


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def check(options: QualityOptions) -> None:
    """`--month` reads every issue active since the month began, within `--budget` points; without
    it the read is a window of `--max-analyzed` analyses in `--scan-pages` pages."""
    month, budget = options.month, options.budget
    if month is not None and not _MONTH.match(month):
        raise UsageError(f"--month: expected YYYY-MM, got {month!r}")
    if month is None and budget is not None:
        raise UsageError("--budget: only with --month (without it the read is a window of --max-analyzed)")
    if month is not None:
        for option, value in (("--max-analyzed", options.max_analyzed), ("--scan-pages", options.scan_pages)):
            if value is not None:
                raise UsageError(f"{option}: not with --month (it counts every first analysis of the month)")
        if budget is not None and budget < 1:
            raise UsageError(f"--budget: must be at least 1 point, got {budget}")
    elif options.max_analyzed is not None and not 1 <= options.max_analyzed <= 100:
        raise UsageError(f"--max-analyzed: must be between 1 and 100, got {options.max_analyzed}")


def run(options: QualityOptions) -> int:
    """Read the month's first analyses (or a window of them) and write quality.md, .json and .svg."""
    token = required_token(options.shared.api_url)
    check(options)
    from dataclasses import replace
    from datetime import UTC, datetime

    from assistant.files import write_files
    from commandline import event_loop
    from commandline.notices import Notices, counted
    from corrections.quality.chart import quality_svg
    from corrections.quality.numbers import MonthRead, month_start, quality_report
    from corrections.quality.repeats import outcome_repeats, with_repeats
    from corrections.quality.report import quality_json, quality_md
    from corrections.read import entry
    from corrections.read.options import ReadVariant, command_options
    from corrections.read.reading import EVERY_ANALYSIS
    from corrections.read.status import Failed

    month = options.month
    since = None if month is None else month_start(month)
    budget = None if month is None else options.budget or DEFAULT_BUDGET
    read = command_options(
        options.shared,
        max_analyzed=options.max_analyzed or WINDOW,
        time_budget=options.time_budget,
        scan_pages=options.scan_pages,
    )
    context = read.config.context
    # learnings.md is not part of the numbers.
    read = replace(read, variant=ReadVariant(since=since, budget=budget, learnings=False))
    outcome = event_loop.run(entry.read(read, token, _stderr))
    say = Notices("corrections")
    for warning in outcome.warnings:
        say.warning(warning)
    say.close()
    if isinstance(outcome.status, Failed):
        say.error(outcome.status.warning(actions=say.actions))
        return 1
    settings = outcome.settings
    read_with = context.max_analyzed if since is None else EVERY_ANALYSIS
    month_read = None
    if month is not None and budget is not None:
        month_read = MonthRead(month, budget, outcome.usage.points, outcome.budget_ended)
    report = quality_report(outcome, settings, read_with, month_read)
    # Repeats from the same read: each analysis's context as its receipt says, or as a read of the
    # configured window (not this wider one) just before it would have given.
    configured = command_options(options.shared).config.context.max_analyzed
    found = outcome_repeats(outcome, settings, window=configured, read_with=read_with)
    report = with_repeats(report, found)
    month = month or (report.months[-1].month if report.months else datetime.now(UTC).strftime("%Y-%m"))
    cost = {"requests": outcome.usage.requests, "points": outcome.usage.points}
    out = options.out
    write_files(
        out,
        {
            "quality.md": quality_md(report, month, context.max_analyzed, context.scan_pages),
            "quality.json": quality_json(report, month, cost),
            "quality.svg": quality_svg(report),
        },
    )
    _stderr(
        f"corrections: {outcome.repository}: {len(report.months)} months read, {month} detailed; "
        f"{counted(cost['requests'], 'request')}, {counted(cost['points'], 'point')}; wrote {out}/quality.md"
    )
    return 0
