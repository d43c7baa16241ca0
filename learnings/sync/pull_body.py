"""The sync pull request's body and commit message: each learning with its source and who accepted it.

Text and globs come from comments, so they are cleaned of invisible characters and written as JSON
strings inside a backtick fence longer than any backtick run in them: no learning can add
Markdown, mention someone or close the fence. Everything outside the fence is fixed words, ids,
numbers, logins and links built from the repository's URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from assistant.templating import markdown_environment
from assistant.untrusted import clean_line, fence_for, json_text
from learnings.rules.model import Learning
from learnings.sync.marks import mark_marker, marks_sentence
from queries.sync_fetch import Marks

TITLE = "Record learnings for the assistant"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
_ENVIRONMENT = markdown_environment(TEMPLATES, trim_blocks=True)


class BodyEntry(BaseModel):
    """One learning as the body shows it."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str
    origin: str
    accepted_by: str
    text: str
    paths: str
    category: str


def origin(learning: Learning, repository_url: str) -> str:
    """`[issue #5, comment 1234](link)`, or `no recorded source`."""
    source = learning.source
    if source.issue is not None:
        thread, path = f"issue #{source.issue}", f"issues/{source.issue}"
    elif source.pull_request is not None:
        thread, path = f"pull request #{source.pull_request}", f"pull/{source.pull_request}"
    else:
        return "no recorded source"
    if source.comment is None:
        return f"[{thread}]({repository_url}/{path})"
    return f"[{thread}, comment {source.comment}]({repository_url}/{path}#issuecomment-{source.comment})"


def _entry(learning: Learning, repository_url: str) -> BodyEntry:
    kind = "suppression" if learning.kind == "suppression" else "note"
    if learning.status != "active":
        kind += f" ({learning.status})"
    paths = "[" + ", ".join(json_text(clean_line(glob)) for glob in learning.paths) + "]"
    return BodyEntry(
        id=learning.id,
        kind=kind,
        origin=origin(learning, repository_url),
        accepted_by=learning.source.accepted_by or "nobody recorded",
        text=json_text(clean_line(learning.text)),
        paths=paths,
        category=json_text(clean_line(learning.category)) if learning.category else "",
    )


def pull_body(
    learnings: Sequence[Learning],
    *,
    repository_url: str,
    store_path: str,
    command: str,
    marks: Marks | None = None,
    left: str | None = None,
) -> str:
    """The pull request's body for the learnings that differ from the default branch, ending with
    how far the sync read (`marks`, also as the hidden marker the next run reads) and what its
    budget `left` for the next run."""
    entries = [_entry(learning, repository_url.rstrip("/")) for learning in learnings]
    fence = fence_for(line for item in entries for line in (item.text, item.paths, item.category))
    text = _ENVIRONMENT.get_template("sync_pull_request.md.j2").render(
        entries=entries,
        fence=fence,
        path=store_path,
        command=command,
        marks=marks_sentence(marks) if marks is not None else None,
        left=left,
        marker=mark_marker(marks) if marks is not None else None,
    )
    return text.rstrip("\n") + "\n"


def commit_message(learnings: Sequence[Learning]) -> tuple[str, str]:
    """Headline and body of the commit that records `learnings`."""
    count = len(learnings)
    headline = f"Record {count} {'learning' if count == 1 else 'learnings'} from comments"
    lines = []
    for learning in learnings:
        source = learning.source
        if source.issue is not None:
            thread = f"issue #{source.issue}"
        elif source.pull_request is not None:
            thread = f"pull request #{source.pull_request}"
        else:
            thread = "no recorded source"
        comment = f", comment {source.comment}" if source.comment is not None else ""
        accepted = f", accepted by @{source.accepted_by}" if source.accepted_by else ""
        lines.append(f"- {learning.id} ({learning.kind}) from {thread}{comment}{accepted}")
    return headline, "\n".join(lines)
