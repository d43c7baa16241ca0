"""The work of `corrections init` (corrections/commands/init.py): it sets a repository up, in a
checkout of it, with its token.

It reads the repository (queries.setup_fetch: its labels with their descriptions, the token's
account and role, whether GitHub Actions may open pull requests), then writes labels.md, the
sample instructions and the three workflows of the chosen engine (corrections.commands.init_files)
into the checkout, never through a symbolic link and never over a file without --force (it shows
the difference instead), and prints what it checked and what is left to do.

Exit status: 0 when every file was written or found as it would be written; 1 when a file was left
as it is (it differs, or is no plain file) or GitHub failed; 2 a usage error; 4 no token.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from assistant.files import Folder
from assistant.untrusted import clean_block, clean_line
from commandline.checkout import top_folder
from commandline.repository import Repository, RepositoryError, resolve_repository
from commandline.usage import DONE, FAILED, UsageError
from corrections.commands import init_files
from corrections.read import notes
from corrections.rules.settings import RuleSettings
from queries.client import GitHubClient
from queries.errors import GitHubError
from queries.setup_fetch import fetch_setup
from queries.setup_models import RepositorySetup

ROLES_THAT_PUSH = {"ADMIN", "MAINTAIN", "WRITE"}


def _say(line: str = "") -> None:
    print(line, flush=True)


async def _read(api_url: str, token: str, repository: Repository) -> RepositorySetup:
    async with GitHubClient(api_url, token) as client:
        return await fetch_setup(client, repository.owner, repository.name)


def _files(setup: RepositorySetup, engine: str) -> tuple[dict[str, str], init_files.LabelsDraft]:
    draft = init_files.labels_md(setup.name_with_owner, setup.labels)
    files = {
        init_files.LABELS_MD: draft.text,
        init_files.INSTRUCTIONS_MD: init_files.instructions(),
        **init_files.workflow_files(engine, init_files.installed_action()),
    }
    return files, draft


def _write(top: Path, files: dict[str, str], *, force: bool) -> list[str]:
    """Write each file that is missing (or differs, with `force`); the names left as they are."""
    left: list[str] = []
    with Folder.open(top, create=False) as folder:
        folder.make_folders(files)  # UnsafePath, before anything is written, for a link on the way
        for name, text in files.items():
            kind = folder.kind(name)
            if kind == "other":
                _say(
                    f"left  {name}: a symbolic link or not a plain file, never followed; remove it and run again"
                )
                left.append(name)
                continue
            old = folder.read(name) if kind == "file" else None
            if old is not None and old.decode("utf-8", "replace") == text:
                _say(f"found {name}, as init would write it")
                continue
            if old is not None and not force:
                shown = clean_block(old.decode("utf-8", "replace"))
                _say(f"left  {name}: it differs from what init would write (--force replaces it):")
                sys.stdout.write(init_files.difference(name, shown, text))
                left.append(name)
                continue
            folder.write(name, text)
            _say(f"wrote {name}" + (" (replaced)" if old is not None else ""))
    return left


def _checks(setup: RepositorySetup, draft: init_files.LabelsDraft, engine: str) -> list[str]:
    """What init could check, one line each: ok, no or ? first."""
    lines = []
    role = setup.role or "an app's token: no role shown"
    lines.append(
        f"ok    your token ({clean_line(setup.viewer)}, {role}) reads {setup.name_with_owner} and its "
        f"{setup.total_labels} labels ({setup.points} GraphQL point{'s' if setup.points != 1 else ''})"
    )
    if setup.role is not None and setup.role not in ROLES_THAT_PUSH:
        lines.append(
            "no    your token cannot push here: committing the files and `learnings` commands need "
            "write access"
        )
    missing = len(setup.labels) < setup.total_labels
    lines.append(
        f"{'no ' if missing or not draft.declared else 'ok '}   labels.md declares {draft.declared} "
        f"label{'s' if draft.declared != 1 else ''}"
        + (f" of {setup.total_labels} (the first {len(setup.labels)} read)" if missing else "")
        + (
            f"; left out, as labels.md cannot declare them: {', '.join(map(repr, draft.left_out))}"
            if draft.left_out
            else ""
        )
    )
    duplicate = RuleSettings().duplicate_label
    if any(label.name.casefold() == duplicate.casefold() for label in setup.labels):
        lines.append(f"ok    the label `{duplicate}` exists (the duplicate notice's)")
    else:
        lines.append(
            f"no    the label `{duplicate}` is missing (the duplicate notice's): "
            f"gh label create {duplicate} --repo {setup.name_with_owner}"
        )
    allowed = setup.pull_requests.allowed
    if allowed is True:
        lines.append("ok    GitHub Actions may create pull requests (the weekly learnings sync opens one)")
    elif allowed is False:
        lines.append(
            "no    GitHub Actions may not create pull requests, so the weekly sync fails: Settings → "
            'Actions → General → Workflow permissions → "Allow GitHub Actions to create and approve '
            'pull requests"'
        )
    else:
        lines.append(
            f"?     whether GitHub Actions may create pull requests (the weekly sync needs it): "
            f"{setup.pull_requests.unknown_because}; see Settings → Actions → General"
        )
    lines.append(
        "note  the analyses are posted with the workflow's token, as github-actions; its marker "
        "tells them from other workflows' comments, nothing to configure"
    )
    return lines


def _next_steps(engine: str, left: list[str], pinned: bool) -> list[str]:
    steps = [
        "read .github/assistant/labels.md (keep the labels the assistant should propose) and make "
        ".github/assistant/instructions.md yours (what the project is, how you triage)",
    ]
    if not pinned:
        steps.append(
            "in the three workflows, replace OWNER/correction-reader@0000… with the repository you "
            "install the action from and its commit SHA (a fork works: "
            "`git ls-remote https://github.com/OWNER/correction-reader HEAD`)"
        )
    if engine == "claude":
        steps.append(
            "add the repository secret ANTHROPIC_API_KEY (Settings → Secrets and variables → Actions)"
        )
    elif engine == "openai":
        steps.append(
            "add the repository secret OPENAI_API_KEY (and the variables OPENAI_BASE_URL, OPENAI_MODEL if not OpenAI's)"
        )
    steps += [
        "commit .github and push it to the default branch: the workflows read these files from there",
        "open an issue: its first analysis carries the maintainers' own labelling of the nearest issues",
    ]
    if left:
        steps.insert(0, f"compare the {len(left)} file(s) left as they were, or run again with --force")
    return [f"{n}. {step}" for n, step in enumerate(steps, 1)]


def run_init(token: str, *, api_url: str, engine: str, repo: str | None, force: bool) -> int:
    """Set the checkout up for the repository (`repo` None: the checkout's) with the workflows of
    `engine`, replacing files that differ with `force`; see the module's docstring for the exit status."""
    top = top_folder()
    if top is None:
        raise UsageError("init: run it in a git checkout of your repository (no git checkout here)")
    try:
        repository = resolve_repository(repo, top)
    except RepositoryError as error:
        raise UsageError(str(error)) from error
    try:
        setup = asyncio.run(_read(api_url, token, repository))
    except GitHubError as error:
        check = notes.what_to_check(error.category, actions=False)
        print(
            f"corrections: error: GitHub failed ({error.category}): {repository} could not be read; "
            f"nothing was written. {check}".strip(),
            file=sys.stderr,
            flush=True,
        )
        return FAILED
    files, draft = _files(setup, engine)
    _say(f"corrections init: {setup.name_with_owner}, first analysis with {init_files.ENGINES[engine][1]}")
    left = _write(top, files, force=force)
    _say()
    _say("checks:")
    for line in _checks(setup, draft, engine):
        _say(f"  {line}")
    _say()
    _say("next steps:")
    for line in _next_steps(engine, left, init_files.installed_action() is not None):
        _say(f"  {line}")
    return FAILED if left else DONE
