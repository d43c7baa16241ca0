"""The run of `corrections backtest` (corrections/commands/backtest.py): the read, the sweep, the
table or the JSON.

Exit 0 when the backtest ran, 1 when GitHub could not be read, 2 for a usage error.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from commandline.arguments import RepositoryOptions
from commandline.notices import Notices
from commandline.usage import UsageError
from corrections.commands.backtest_cache import CACHE_FILE, PERMISSIONS_FILE, AnswerCache, PermissionCache
from corrections.commands.backtest_model import model_argv, run_model, state_dir
from corrections.quality.backtest_run import MAX_LAST, Backtest, Run
from corrections.quality.file_as_of import FileAsOf, FileVersionThen
from corrections.read.entry import read
from corrections.read.options import ReadOptions, ReadVariant, command_options
from corrections.read.status import Failed
from corrections.rules.analysis_marker import MAX_RECEIPT_CORRECTIONS
from queries.client import GitHubClient
from queries.errors import GitHubError
from queries.file_history import fetch_file_history
from queries.usage import Usage

WIDEST = MAX_RECEIPT_CORRECTIONS


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def sweep_values(text: str | None, configured: int) -> list[int]:
    """`--max-analyzed 10,30,60`: the windows to try, each 1 to 100 (default: the configured one)."""
    if text is None:
        return [configured or 30]
    values: list[int] = []
    for part in text.split(","):
        try:
            value = int(part.strip())
        except ValueError as error:
            raise UsageError(f"--max-analyzed: expected numbers separated by commas, got {text!r}") from error
        if not 1 <= value <= WIDEST:
            raise UsageError(f"--max-analyzed: each window must be between 1 and {WIDEST}, got {value}")
        if value not in values:
            values.append(value)
    return values


def _percent(value: object) -> str:
    return "-" if not isinstance(value, float | int) else f"{value:.0%}"


def backtest_table(
    repository: str,
    model: str,
    runs: list[Run],
    *,
    analyses: int,
    cost: dict[str, int],
    calls: str,
    histories: Sequence[str] = (),
) -> str:
    """The terminal's table: one row per window and run, the figures `--json` gives."""
    lines = [
        f"Backtest of the last {analyses} first analyses of {repository}, model: {model}",
        "",
        "| max_analyzed | context | precision | recall | false adds | false removes | recurrences given | not given | objected duplicates | unparsed | prompt tokens |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        document = run.document()
        rows = (
            ("with", "with_context"),
            ("with, second look", "with_second_look"),
            ("without", "without_context"),
        )
        for name, key in rows:
            figures = document[key]
            assert isinstance(figures, dict)
            recurrences = figures["recurrences"]
            lines.append(
                f"| {run.max_analyzed if name == 'with' else ''} | {name} | {_percent(figures['precision'])} | "
                f"{_percent(figures['recall'])} | {_percent(figures['false_adds'])} | "
                f"{_percent(figures['false_removes'])} | {recurrences['given']} | {recurrences['not_given']} | "
                f"{figures['objected_duplicates']} | {figures['unparsed']} | {figures['prompt_tokens']:,} |"
            )
    lines += [
        "",
        "Precision and recall per label, averaged over the labels; false adds: of the labels proposed, the "
        "share maintainers did not leave; false removes: of the labels maintainers left, the share not "
        "proposed; recurrences: mistakes that one of the issue's nearest corrected issues had as a correction, "
        "given when its line was in the context of that window, not given when it was not; unparsed: "
        "answers that held no analysis (not scored, not cached); "
        "second look: the answers with the context after `corrections answer`'s second look.",
        f"Cost: {cost['requests']} requests, {cost['points']} points (one read"
        + (f", and the history of {' and '.join(histories)}" if histories else "")
        + "); "
        f"model: {calls}.",
    ]
    return "\n".join(lines) + "\n"


async def base_histories(
    options: ReadOptions, token: str, paths: Sequence[str]
) -> tuple[list[FileAsOf | None], Usage, list[str]]:
    """Each file's history on the base branch (one request a file, side by side, a point each),
    what they cost, and a warning for each that could not be read (then the replayed prompts have
    it as it is now)."""

    async def one(client: GitHubClient, path: str) -> FileAsOf | str:
        try:
            found = await fetch_file_history(client, options.owner, options.name, options.base_ref, path)
        except GitHubError as error:
            return f"{path}: its history could not be read ({type(error).__name__}); the replayed prompts have it as it is now"
        versions = tuple(FileVersionThen(v.at, v.text) for v in found.versions)
        return FileAsOf(versions, complete=found.complete)

    async with GitHubClient(options.api_url, token) as client:
        found = await asyncio.gather(*(one(client, path) for path in paths))
        usage = client.usage
    return (
        [f if isinstance(f, FileAsOf) else None for f in found],
        usage,
        [f for f in found if isinstance(f, str)],
    )


def run_backtest(
    shared: RepositoryOptions,
    token: str,
    *,
    model_line: str,
    last: int,
    windows: str | None,
    json_out: bool,
    instructions_file: Path | None,
    timeout: float,
    state_folder: Path | None,
) -> int:
    """Read once, replay the last `last` first analyses through `model_line`, print the table or
    JSON (`json_out`); `windows`: `--max-analyzed 10,30,60` as given; `state_folder` None: the
    default state folder."""
    try:
        model = model_argv(model_line)
    except ValueError as error:
        raise UsageError(str(error)) from error
    if not 1 <= last <= MAX_LAST:
        raise UsageError(f"--last: must be between 1 and {MAX_LAST}, got {last}")
    if timeout <= 0:
        raise UsageError("--timeout: must be a positive number of seconds")
    instructions = None
    if instructions_file is not None:
        try:
            instructions = instructions_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"--instructions: {instructions_file}: cannot be read ({error})") from error
    options = command_options(shared)
    sweep = sweep_values(windows, options.config.context.max_analyzed)
    state = state_folder or state_dir()
    permissions = PermissionCache.load(state / PERMISSIONS_FILE, f"{options.owner}/{options.name}")
    reused = permissions.known(datetime.now(UTC))
    if reused:
        _stderr(f"corrections: backtest: permissions of {len(reused)} people from {permissions.path}")
    started = time.monotonic()
    # Run by a maintainer, whose token may list collaborators: one request for everyone's permission.
    variant = ReadVariant(
        widest=True, known_permissions=tuple(sorted(reused.items())), collaborator_list=True
    )
    wider = dataclasses.replace(options, variant=variant)
    outcome = asyncio.run(read(wider, token, _stderr))
    say = Notices("corrections")
    for warning in outcome.warnings:
        say.warning(warning)
    if isinstance(outcome.status, Failed):
        say.error(outcome.status.warning(actions=say.actions))
        say.close()
        return 1
    labels_path = outcome.config.context.labels_file
    learnings_path = outcome.config.learnings.file if outcome.learnings is not None else None
    paths = [labels_path, *([learnings_path] if learnings_path else [])]
    histories, history_usage, unread = asyncio.run(base_histories(options, token, paths))
    for warning in unread:
        say.warning(warning)
    history, learnings_history = histories[0], (histories[1] if learnings_path else None)
    say.close()
    permissions.save(outcome.permissions, reused, datetime.now(UTC))
    cache_path = state / CACHE_FILE
    _stderr(f"corrections: backtest: answers cached in {cache_path}")
    backtest = Backtest(
        model=model,
        sweep=sweep,
        last=last,
        timeout=timeout,
        cache=AnswerCache.load(cache_path),
        ask=run_model,
        instructions=instructions,
        labels=history,
        learnings=learnings_history,
        learnings_source=f"{options.base_ref}:{learnings_path}",
    )
    read_seconds = time.monotonic() - started
    runs = backtest.run(outcome, outcome.settings, WIDEST)
    analyses = len(runs[0].without_context) if runs else 0
    analyses = max(analyses, max((len(r.with_context) for r in runs), default=0))
    cost = {
        "requests": outcome.usage.requests + history_usage.requests,
        "points": outcome.usage.points + history_usage.points,
    }
    for path, found, today in (
        (labels_path, history, backtest.labels_today),
        (learnings_path, learnings_history, backtest.learnings_today),
    ):
        if found is not None:
            versions = len(found.versions)
            _stderr(
                f"corrections: backtest: {path} as of each analysis, from its history on the base branch "
                f"({versions} version{'' if versions == 1 else 's'}, 1 request)"
                + (f"; {today} analyses older than the versions read have it as it is now" if today else "")
            )
    calls = (
        f"{backtest.calls} calls, {backtest.cache.hits} answers from the cache"
        + (f", {backtest.failed} not scored" if backtest.failed else "")
        + (f", {backtest.unparsed} unparsed" if backtest.unparsed else "")
    )
    if json_out:
        document = {
            "v": 1,
            "repository": outcome.repository,
            "analyses": analyses,
            "runs": [run.document() for run in runs],
            "cost": cost,
        }
        print(json.dumps(document, indent=2))
    else:
        print(
            backtest_table(
                outcome.repository,
                model_line,
                runs,
                analyses=analyses,
                cost=cost,
                calls=calls,
                histories=[Path(path).name for path, found in zip(paths, histories, strict=True) if found],
            ),
            end="",
        )
    _stderr(
        f"corrections: backtest: {analyses} analyses, {cost['requests']} requests, {cost['points']} points; "
        f"{calls}; read {read_seconds:.2f} s, model {backtest.model_seconds:.2f} s, the backtest's own "
        f"work {time.monotonic() - started - read_seconds - backtest.model_seconds:.2f} s"
    )
    return 0
