"""The files `corrections init` writes, as texts: labels.md drafted from the repository's labels,
the sample instructions, and the example workflows of the chosen engine, pinned to the commit this
command was installed from when that is known. Functions of texts: the only I/O is reading the
samples and pip's record of the install (the command writes the files).

The samples are the project's examples/ folder: shipped in the wheel as `corrections/samples/`
(pyproject.toml), read from the source tree in a checkout of the project.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from assistant.untrusted import clean_line, inline_code, plain_markdown_line
from commandline.repository import repository_of_url
from corrections.rules.vocabulary import MAX_NAME
from queries.setup_models import Label

ENGINES = {
    "models": ("first-analysis.yml", "GitHub Models (no key: `models: read`)"),
    "claude": ("claude-first-analysis.yml", "Claude (the secret ANTHROPIC_API_KEY)"),
    "openai": ("openai-first-analysis.yml", "an OpenAI-compatible API (the secret OPENAI_API_KEY)"),
}
LABELS_MD = ".github/assistant/labels.md"
INSTRUCTIONS_MD = ".github/assistant/instructions.md"
FIRST_ANALYSIS = ".github/workflows/first-analysis.yml"
SYNC = ".github/workflows/learnings-sync.yml"
QUALITY = ".github/workflows/quality-monthly.yml"
# The examples' placeholder for the action, replaced when the commit installed from is known.
PLACEHOLDER_USES = re.compile(r"OWNER/correction-reader@0{40} # v1")
_SHA = re.compile(r"^[0-9a-f]{40}$")


def samples() -> Path:
    """The folder of the example workflows and the sample instructions."""
    packaged = Path(__file__).resolve().parent.parent / "samples"
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[2] / "examples"


def installed_action() -> str | None:
    """`OWNER/NAME@SHA` of the GitHub commit this command was installed from, as pip recorded it
    (PEP 610's direct_url.json: `pipx install git+https://github.com/OWNER/NAME@SHA`), or None."""
    try:
        recorded = metadata.distribution("correction-reader").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        found = json.loads(recorded or "null")
    except ValueError:
        return None
    if not isinstance(found, dict) or not isinstance(found.get("vcs_info"), dict):
        return None
    commit, url = found["vcs_info"].get("commit_id"), found.get("url")
    repository = repository_of_url(url) if isinstance(url, str) else None
    if repository is None or not isinstance(commit, str) or not _SHA.match(commit):
        return None
    return f"{repository}@{commit}"


def pinned(workflow: str, action: str | None) -> str:
    """The example with its placeholder `uses:` replaced by `action` (when known)."""
    if action is None:
        return workflow
    return PLACEHOLDER_USES.sub(f"{action} # the commit `corrections init` was installed from", workflow)


@dataclass(frozen=True)
class LabelsDraft:
    """labels.md's text, and the labels it had to leave out (a name labels.md cannot declare)."""

    text: str
    declared: int
    left_out: tuple[str, ...]


def labels_md(repository: str, labels: tuple[Label, ...]) -> LabelsDraft:
    """One `- `name`: description` line per label GitHub gave, in its order; the description is
    the maintainers' own words, cleaned and escaped so that it stays words on its line."""
    lines, left_out = [], []
    for label in labels:
        name = label.name
        if "`" in name or clean_line(name) != name or not name or len(name) > MAX_NAME:
            left_out.append(name)
            continue
        description = plain_markdown_line(label.description)
        lines.append(f"- {inline_code(name)}: {description}" if description else f"- {inline_code(name)}")
    head = [
        "# Labels the triage assistant may use",
        "",
        f"<!-- Drafted by `corrections init` from the labels of {repository}, with their descriptions.",
        "     Keep those the assistant should propose and say when each applies; retire one by",
        "     putting its line in an HTML comment like this one. -->",
        "",
    ]
    return LabelsDraft("\n".join([*head, *lines]) + "\n", len(lines), tuple(left_out))


def workflow_files(engine: str, action: str | None) -> dict[str, str]:
    """The three workflows of `engine`, by their path in the adopter's repository."""
    folder = samples()
    sample = ENGINES[engine][0]
    return {
        FIRST_ANALYSIS: pinned((folder / sample).read_text(encoding="utf-8"), action),
        SYNC: pinned((folder / "learnings-sync.yml").read_text(encoding="utf-8"), action),
        QUALITY: pinned((folder / "quality-monthly.yml").read_text(encoding="utf-8"), action),
    }


def instructions() -> str:
    """The sample instructions, to be made the project's own."""
    return (samples() / "instructions.md").read_text(encoding="utf-8")


def difference(name: str, old: str, new: str) -> str:
    """A unified diff of the file as it is and as `init` would write it."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), f"{name} (yours)", f"{name} (init)"
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
