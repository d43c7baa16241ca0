"""The validated options of one read, from the command line or the action's inputs.

Only the standard library and small modules at import: `--help` must not pay for pydantic. The
configuration is validated inside `build_options` when there is something to validate (a file,
`--max-analyzed`); the defaults alone are built only when first used, so a read with nothing
configured sends its first request before pydantic is loaded (corrections/read.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.config_file import ConfigError, ConfigFile
from commandline.repository import RepositoryError, resolve_repository
from commandline.usage import UsageError
from corrections.analysed import AnalysedIssue
from corrections.scan_asks import ScanSettings
from queries.budget import DEFAULT_BUDGET

if TYPE_CHECKING:
    from assistant.config import Config


@dataclass(frozen=True)
class ReadOptions:
    """Everything `corrections read` needs besides the token."""

    owner: str
    name: str
    out: Path
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
    # The configuration validated from a file or --max-analyzed; None: the defaults.
    validated: Config | None = None

    @cached_property
    def config(self) -> Config:
        """The configuration; the defaults are built (pydantic loaded) only when first asked for."""
        if self.validated is not None:
            return self.validated
        from assistant.config import Config

        return Config()

    @property
    def scan(self) -> ScanSettings:
        """The keys that decide the first request, without loading pydantic for the defaults."""
        return ScanSettings.defaults() if self.validated is None else ScanSettings.of(self.validated)


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
    from assistant.config_file import read_config_file

    try:
        repository = resolve_repository(repo)
    except RepositoryError as error:
        raise UsageError(str(error)) from error
    try:
        # A missing or malformed file fails here, before pydantic is imported (validation needs it).
        found = None if remote_config is not None else read_config_file(config_path)
    except ConfigError as error:
        raise UsageError(str(error)) from error
    config = None if found is None and max_analyzed is None else _validated(found, max_analyzed)
    if time_budget is not None and time_budget <= 0:
        raise UsageError("--time-budget: must be a positive number of seconds")
    if analysed is not None and analysed.number < 1:
        raise UsageError(f"--issue: expected an issue number, got {analysed.number}")
    return ReadOptions(
        owner=repository.owner,
        name=repository.name,
        out=out,
        api_url=api_url,
        base_ref=base_ref or "HEAD",
        paths=tuple(paths),
        time_budget=time_budget or DEFAULT_BUDGET,
        remote_config=remote_config,
        remote_config_required=remote_config_required,
        max_analyzed=max_analyzed,
        analysed=analysed,
        validated=config,
    )


def _validated(found: ConfigFile | None, max_analyzed: int | None) -> Config:
    """The file's configuration (defaults when there is none) with --max-analyzed over it."""
    from assistant.config import validate_config, with_values

    try:
        config = validate_config(found)
        if max_analyzed is not None:
            config = with_values(config, "--max-analyzed", "context", {"max_analyzed": max_analyzed})
    except ConfigError as error:
        raise UsageError(str(error)) from error
    return config
