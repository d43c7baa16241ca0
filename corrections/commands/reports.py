"""The maintainer's commands: `corrections quality` (monthly numbers) and `corrections explain N`.

Both read through the reader's own round trips and rules; a failing GitHub is reported in one
line and exit status 1 (nothing else depends on these commands), bad arguments 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

from assistant.files import write_files
from commandline import event_loop
from commandline.notices import Notices, counted
from commandline.usage import UsageError
from corrections.quality.chart import quality_svg
from corrections.quality.explain import explain
from corrections.quality.numbers import MonthRead, complete_after, month_start, quality_report
from corrections.quality.repeats import AnalysisRepeats, analysis_repeats, outcome_repeats, with_repeats
from corrections.quality.report import quality_json, quality_md
from corrections.read import entry, notes
from corrections.read.issue_read import IssueRead
from corrections.read.options import ReadOptions, build_options, command_options, option_overrides
from corrections.read.reading import EVERY_ANALYSIS
from corrections.read.status import Failed
from corrections.read.trail import TrailOutcome
from corrections.rules.analysis_marker import MAX_RECEIPT_CORRECTIONS
from corrections.rules.issue import correct, first_analysis
from queries.errors import GitHubError

_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
# `--month`'s points budget: a busy month (3,000 issues, 2,535 first analyses) costs 55; a
# workflow token has 1,000 points an hour.
DEFAULT_BUDGET = 100
WINDOW = 100  # the analyses read without --month (`--max-analyzed`)
WIDEST = MAX_RECEIPT_CORRECTIONS  # the widest window: what any analysis's context could hold


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _check_quality_arguments(args: argparse.Namespace) -> None:
    """`--month` reads every issue active since the month began, within `--budget` points; without
    it the read is a window of `--max-analyzed` analyses in `--scan-pages` pages."""
    if args.month is not None and not _MONTH.match(args.month):
        raise UsageError(f"--month: expected YYYY-MM, got {args.month!r}")
    if args.month is None and args.budget is not None:
        raise UsageError("--budget: only with --month (without it the read is a window of --max-analyzed)")
    if args.month is not None:
        for option, value in (("--max-analyzed", args.max_analyzed), ("--scan-pages", args.scan_pages)):
            if value is not None:
                raise UsageError(f"{option}: not with --month (it counts every first analysis of the month)")
        if args.budget is not None and args.budget < 1:
            raise UsageError(f"--budget: must be at least 1 point, got {args.budget}")
    elif args.max_analyzed is not None and not 1 <= args.max_analyzed <= 100:
        raise UsageError(f"--max-analyzed: must be between 1 and 100, got {args.max_analyzed}")


def run_quality(args: argparse.Namespace, token: str) -> int:
    """Read the month's first analyses (or a window of them) and write quality.md, .json and .svg."""
    _check_quality_arguments(args)
    since = None if args.month is None else month_start(args.month)
    budget = None if args.month is None else args.budget or DEFAULT_BUDGET
    options = build_options(
        repo=args.repo,
        out=Path(args.out),
        config_path=Path(args.config) if args.config else None,
        api_url=args.api_url,
        max_analyzed=args.max_analyzed or WINDOW,
        base_ref=args.base_ref,
        time_budget=args.time_budget,
        overrides=option_overrides(args),
        scan_pages=args.scan_pages,
    )
    context = options.config.context
    # learnings.md is not part of the numbers.
    options = dataclasses.replace(options, since=since, budget=budget, learnings=False)
    outcome = event_loop.run(entry.read(options, token, _stderr))
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
    if args.month is not None and budget is not None:
        spent = outcome.usage.points
        month_read = MonthRead(args.month, budget, spent, outcome.budget_ended)
    report = quality_report(outcome, settings, read_with, month_read)
    # Repeats from the same read: each analysis's context as its receipt says, or as a read of the
    # configured window (not this wider one) just before it would have given.
    configured = command_options(args).config.context.max_analyzed
    found = outcome_repeats(outcome, settings, window=configured, read_with=read_with)
    report = with_repeats(report, found)
    month = args.month or (report.months[-1].month if report.months else datetime.now(UTC).strftime("%Y-%m"))
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


def run_explain(args: argparse.Namespace, token: str) -> int:
    """Print why issue N taught the assistant what it did (or nothing)."""
    if args.number < 1:
        raise UsageError(f"issue number must be positive, got {args.number}")
    options = command_options(args)
    say = Notices("corrections")
    try:
        trail = event_loop.run(entry.read_trail(options, args.number, token, _stderr))
    except GitHubError as error:
        check = notes.what_to_check(error.category, actions=say.actions)
        say.error(f"GitHub failed ({error.category}): the issue could not be read. {check}".strip())
        return 1
    for warning in trail.warnings:
        say.warning(warning)
    say.close()
    if trail.issue is None:
        print(f"#{args.number}: no such issue in {options.owner}/{options.name} (or it is a pull request).")
        return 1
    repeats = _repeats_of(options, token, trail)
    for line in explain(
        trail.issue, trail.settings, trail.permissions, trail.reactors, trail.facts, repeats=repeats
    ):
        print(line)
    return 0


def _repeats_of(options: ReadOptions, token: str, trail: TrailOutcome) -> AnalysisRepeats | None:
    """What the issue's first analysis had been given, from one read of the widest window (the
    receipt's issues, or the window as of the analysis); None without a first analysis or a read."""
    issue = trail.issue
    assert issue is not None
    first = first_analysis(issue, trail.settings)
    if first is None:
        return None
    window = options.config.context.max_analyzed
    outcome = event_loop.run(
        entry.read(dataclasses.replace(options, widest=True, learnings=False), token, _stderr)
    )
    if isinstance(outcome.status, Failed):
        _stderr(f"corrections: the window could not be read ({outcome.status.failure}): repeats not said")
        return None
    settings = outcome.settings
    read = next((r for r in outcome.window if r.issue.number == issue.number), None)
    if read is None or read.first is None:
        read = IssueRead.of(issue, None, 0, settings)
    assert read.first is not None
    correction = correct(read.issue, read.first, trail.reactors or (), settings, trail.permissions)
    return analysis_repeats(
        outcome, read, correction, settings, window=window, read_back_to=complete_after(outcome, WIDEST)
    )
