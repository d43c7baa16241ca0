"""The base branch's files a run reads through GitHub: labels.md, learnings.jsonl and, in the
action, the configuration itself.

The action never reads the workspace (a workflow may have checked out a pull request's head there,
whose author would then choose the assistant's login, the vocabulary and the learnings file): its
configuration comes from the base ref in round trip 1, beside the default labels.md and learnings.
When that configuration names other files, they are read in one more request (round trip 2); the
default case costs nothing more.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from assistant.config import Config, ConfigError, Override, parse_config, with_overrides
from assistant.identity import BOT_SUFFIX
from corrections.read import notes
from corrections.read.options import ReadOptions
from corrections.read.scan_asks import files_to_read
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import parse_vocabulary
from learnings.rules.staleness import anchors
from learnings.store.jsonl import LoadedLearnings, parse_jsonl
from queries.client import GitHubClient
from queries.errors import GitHubError, lacks
from queries.fetch import WindowPage, fetch_base_files
from queries.models import Blob
from queries.requests import FileRequest


@dataclass(frozen=True)
class BaseFileTexts:
    """What the base branch holds, as read: the configuration in force and the files' text."""

    config: Config
    labels: str | None
    learnings: str | None
    failed: tuple[notes.Part, ...]  # parts GitHub did not answer ("labels", "learnings", "config")
    warnings: tuple[str, ...]
    categories: tuple[str, ...] = ()  # why a part failed (a fixed category)
    # The configuration at the base ref could not be read (the action): why, a fixed category.
    # The read stops there: defaults would stand in for a configured login without a word.
    config_unread: str | None = None


def file_text(blob: Blob | None, path: str, warnings: list[str]) -> str | None:
    """A file's text read through GitHub; None when there is none (or it is binary).

    GitHub cuts `Blob.text` at 512,000 bytes (`isTruncated`): what came is used up to its last
    whole line (the cut line could be half a label or half a JSON line) and a warning says so.
    """
    if blob is None:
        return None
    if blob.text is None:
        warnings.append(f"{path}: binary file on the base branch, ignored")
        return None
    if blob.is_truncated:
        warnings.append(
            f"{path}: larger than the 512,000 bytes GitHub gives of a file; "
            "read up to the last whole line before the cut, the rest ignored"
        )
        return blob.text[: blob.text.rfind("\n") + 1]
    return blob.text


def base_config(
    blob: Blob | None,
    where: str,
    *,
    required: bool,
    overrides: Iterable[Override] = (),
) -> Config:
    """The configuration read at the base ref (defaults when there is no file and none was named),
    the step's inputs (`max-analyzed`, `assistant-login`) over it. Raises ConfigError
    naming `REF:PATH` and the key, or the input."""
    config = Config()
    if blob is None and required:
        raise ConfigError(f"{where}: configuration file not found at the base ref")
    if blob is not None:
        if blob.text is None or blob.is_truncated:
            raise ConfigError(f"{where}: not a text file GitHub returns whole")
        config = parse_config(blob.text, Path(where))
    return with_overrides(config, overrides)


async def read_base_files(client: GitHubClient, options: ReadOptions, page: WindowPage) -> BaseFileTexts:
    """The configuration in force and the texts of labels.md and learnings, from the first page
    (which asked for `files_to_read`), and round trip 2 when the base branch's configuration
    names other paths.

    Raises ConfigError for a configuration at the base ref that does not validate.
    """
    config, files = options.config, files_to_read(options)
    warnings: list[str] = []
    failed: list[notes.Part] = [
        notes.part(name) for name in page.failed if name in {"labels", "learnings", "config"}
    ]
    labels_blob, learnings_blob = page.labels_file, page.learnings_file
    refused = set(page.refused)
    categories: list[str] = []
    if files.config_path is not None and "config" in failed:
        why = lacks("contents") if "config" in refused else "partial answer"
        return BaseFileTexts(config, None, None, tuple(failed), (), (why,), config_unread=why)
    if files.config_path is not None:
        where = f"{files.ref}:{files.config_path}"
        config = base_config(
            page.config_file,
            where,
            required=files.config_required,
            overrides=options.overrides,
        )
        wanted = FileRequest(
            ref=files.ref,
            labels_path=config.context.labels_file,
            learnings_path=config.learnings.file if config.learnings.enabled else None,
        )
        learnings_moved = wanted.learnings_path not in {None, files.learnings_path}
        if wanted.labels_path != files.labels_path or learnings_moved:
            try:
                again = await fetch_base_files(client, options.owner, options.name, wanted)
            except GitHubError as error:
                failed = ["labels", "learnings"]
                categories.append(error.category)
                labels_blob = learnings_blob = None
            else:
                failed = [notes.part(name) for name in again.failed]
                refused = set(again.refused)
                labels_blob, learnings_blob = again.labels_file, again.learnings_file
    if refused:
        categories.append(lacks("contents"))
    if set(failed) - refused and not categories:
        categories.append("partial answer")
    labels = file_text(labels_blob, config.context.labels_file, warnings)
    learnings = (
        file_text(learnings_blob, config.learnings.file, warnings) if config.learnings.enabled else None
    )
    return BaseFileTexts(
        config=config,
        labels=labels,
        learnings=learnings,
        failed=tuple(failed),
        warnings=tuple(warnings),
        categories=tuple(categories),
    )


def with_viewer_as_assistant(texts: BaseFileTexts, viewer: str | None) -> BaseFileTexts:
    """When neither the configuration nor an input names the assistant's login, the assistant is
    the app the token acts as (`viewer`, asked with the first page): an app's token answers
    `<slug>[bot]`, the Bot `<slug>`; a workflow's GITHUB_TOKEN `github-actions[bot]`, the shared
    account (assistant.identity). Zero configuration then reads what that token posted. A
    person's token changes nothing: it is mostly a maintainer's, running a command by hand, whose
    own corrections must count (a machine user that posts the analyses is named in the
    configuration)."""
    config = texts.config
    if config.assistant_named or not viewer or not viewer.strip().lower().endswith(BOT_SUFFIX):
        return texts
    login = viewer.strip()[: -len(BOT_SUFFIX)]
    assistant = dataclasses.replace(config.assistant, login=login, account="bot")
    return dataclasses.replace(texts, config=dataclasses.replace(config, assistant=assistant))


@dataclass(frozen=True)
class Base:
    """What the rules and the reading take from the base branch: the rules' settings (built once a
    run, from the configuration in force and labels.md), the learnings and the paths they name."""

    settings: RuleSettings
    learnings: LoadedLearnings | None
    path_checks: tuple[str, ...]  # `REF:PATH` of each anchored path: whether it still exists
    warnings: tuple[str, ...]


def base_of(texts: BaseFileTexts, ref: str) -> Base:
    """The base branch's files, parsed: labels.md into the vocabulary, the learnings file."""
    config = texts.config
    warnings: list[str] = []
    if "labels" in texts.failed:
        warnings.append(f"{config.context.labels_file} could not be read at {ref}: no label is a correction")
    elif texts.labels is None:
        warnings.append(f"{config.context.labels_file} not found at {ref}: no label is a correction")
    settings = RuleSettings.from_config(config).with_vocabulary(parse_vocabulary(texts.labels or ""))
    if not config.learnings.enabled:
        return Base(settings, None, (), tuple(warnings))
    learnings = parse_jsonl(texts.learnings or "", source=f"{ref}:{config.learnings.file}")
    checks = tuple(f"{ref}:{path}" for path in sorted(anchors(learnings.learnings)))
    return Base(settings, learnings, checks, tuple(warnings))
