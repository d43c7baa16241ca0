"""The validated options of one read, from the command line or the action's inputs.

Only the standard library and small modules: a read sends its first request before the models
(pydantic) are loaded (corrections/read/entry.py), and a configuration error answers without them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.config import (
    Config,
    ConfigError,
    Override,
    assistant_overrides,
    read_config_file,
    validate_config,
    with_overrides,
    with_values,
)
from assistant.config_keys import KEYS
from commandline.repository import RepositoryError, resolve_repository
from commandline.usage import UsageError
from corrections.read.analysed import AnalysedIssue
from queries.defaults import DEFAULT_BUDGET, GITHUB_GRAPHQL_URL

if TYPE_CHECKING:
    from commandline.arguments import RepositoryOptions

# The widest window a read can be asked for: the window of a past moment, a backtest, explain.
WIDEST = KEYS["context"]["max_analyzed"].high or 100
# Who gave the window when it applies over the configuration read at the base ref.
WINDOW_INPUT = "input max-analyzed"


@dataclass(frozen=True)
class RemoteConfig:
    """The action's configuration: a path in the repository read at the base ref through GitHub
    with the first page, never from the workspace."""

    path: str
    required: bool = False  # named by the input: it must exist at the base ref


@dataclass(frozen=True)
class ReadVariant:
    """What one command asks of a read besides the window the configuration sizes. What changes
    the configuration read (`widest`, `learnings`, `as_of`'s window) is applied by
    `ReadOptions.resolved`, once; the round trips read the rest (`since`, `budget`, the
    permissions). A new variant is a field here and its line there."""

    # `--as-of`: the context a first analysis at this moment would have had (corrections/quality/as_of.py).
    as_of: datetime | None = None
    # `corrections quality --month`: every first analysis on the issues active since this moment,
    # scanning (newest activity first) until an issue last active before it, within `budget` points.
    since: datetime | None = None
    budget: int | None = None
    # (login, permission) read by an earlier run (`corrections backtest`'s cache): not asked again.
    known_permissions: tuple[tuple[str, str], ...] = ()
    # Ask REST's whole collaborator list first (a maintainer's token; queries/permissions.py).
    collaborator_list: bool = False
    # Read the widest window (the backtest, explain's repeats, the sync): what is kept of it is the caller's.
    widest: bool = False
    # Read learnings.md (off for the numbers: `quality`, `explain`).
    learnings: bool = True


@dataclass(frozen=True)
class ReadOptions:
    """One read: what to read and where from (`corrections read`, the action, the maintainers'
    commands); everything a read needs besides the token. Where its files go is the writing
    command's (`out`, the changed `paths`).

    `remote_config` (the action): the configuration is read at the base ref through GitHub;
    `config` then holds only the defaults and the step's inputs, and `overrides` (the inputs,
    `max-analyzed` among them) apply over the configuration read.
    """

    owner: str
    name: str
    config: Config
    api_url: str = GITHUB_GRAPHQL_URL
    base_ref: str = "HEAD"
    time_budget: float = DEFAULT_BUDGET
    remote_config: RemoteConfig | None = None
    # Keys the inputs or options set over the configuration (applied again over the one read at
    # the base ref): the window (`max-analyzed`), the assistant's account (`assistant-login`, ...).
    overrides: tuple[Override, ...] = ()
    # The issue being analysed (`--issue N`, the action's event): the corrections nearest it come
    # first; its text is asked for with the first page when not known already.
    analysed: AnalysedIssue | None = None
    variant: ReadVariant = ReadVariant()

    def resolved(self) -> ReadOptions:
        """The options with their variant applied to what is read (corrections/read/entry.py, once):
        the widest window (`widest`; a read as of a past moment when reading is on), learnings.md
        left out (`learnings` off)."""
        config, overrides, variant = self.config, self.overrides, self.variant
        if variant.widest or (variant.as_of is not None and config.context.max_analyzed > 0):
            widest = Override("the widest window", "context", "max_analyzed", WIDEST)
            config = with_overrides(config, [widest])
            overrides = (
                *(o for o in overrides if (o.section, o.key) != (widest.section, widest.key)),
                widest,
            )
        if not variant.learnings:
            config = with_values(config, "learnings", "learnings", {"enabled": False})
        return replace(self, config=config, overrides=overrides)

    @property
    def reading_off(self) -> bool:
        """Reading is turned off ([context] max_analyzed = 0): nothing is read from GitHub."""
        return self.config.context.max_analyzed == 0


def parse_moment(option: str, text: str) -> datetime:
    """An ISO 8601 date or time (`2026-11-02`, `2026-11-02T10:30:00Z`); UTC when it names no offset.

    Raises UsageError naming the option.
    """
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError as error:
        raise UsageError(
            f"{option}: expected an ISO 8601 date or time (2026-11-02T10:30:00Z), got {text!r}"
        ) from error
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def build_options(
    *,
    repo: str | None,
    config_path: Path | None,
    api_url: str,
    max_analyzed: int | None = None,
    base_ref: str | None = None,
    time_budget: float | None = None,
    remote_config: RemoteConfig | None = None,
    analysed: AnalysedIssue | None = None,
    overrides: Sequence[Override] = (),
    scan_pages: int | None = None,
) -> ReadOptions:
    """Validated options of one read; raises UsageError with one line naming what is wrong.

    `repo` None: the repository of the checkout's `origin` remote, as gh does. With
    `remote_config` (the action) no local file is read: the configuration at that path is read at
    the base ref through GitHub, and `config_path` must be None.
    """

    try:
        repository = resolve_repository(repo)
    except RepositoryError as error:
        raise UsageError(str(error)) from error
    try:
        found = None if remote_config is not None else read_config_file(config_path)
        config = validate_config(found)
        if max_analyzed is not None:
            config = with_values(config, "--max-analyzed", "context", {"max_analyzed": max_analyzed})
        if scan_pages is not None:
            config = with_values(config, "--scan-pages", "context", {"scan_pages": scan_pages})
        config = with_overrides(config, overrides)
    except ConfigError as error:
        raise UsageError(str(error)) from error
    if time_budget is not None and time_budget <= 0:
        raise UsageError("--time-budget: must be a positive number of seconds")
    if analysed is not None and analysed.number < 1:
        raise UsageError(f"--issue: expected an issue number, got {analysed.number}")
    # The window again over a configuration read at the base ref (the step's input).
    window = (
        () if max_analyzed is None else (Override(WINDOW_INPUT, "context", "max_analyzed", max_analyzed),)
    )
    return ReadOptions(
        owner=repository.owner,
        name=repository.name,
        config=config,
        api_url=api_url,
        base_ref=base_ref or "HEAD",
        time_budget=time_budget or DEFAULT_BUDGET,
        remote_config=remote_config,
        analysed=analysed,
        overrides=(*window, *overrides),
    )


def command_options(shared: RepositoryOptions, **keys: Any) -> ReadOptions:
    """The options of a command's read from the flags every reading command shares (`--repo`,
    `--config`, `--api-url`, `--base-ref`, `--assistant-login`, `--assistant-account`), and `keys`
    for build_options."""
    given = {"assistant-login": shared.assistant_login, "assistant-account": shared.assistant_account}
    return build_options(
        repo=shared.repo,
        config_path=shared.config,
        api_url=shared.api_url,
        base_ref=shared.base_ref,
        overrides=assistant_overrides(given, option=True),
        **keys,
    )
