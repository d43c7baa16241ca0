"""The issue being analysed, as `corrections prompt --event FILE` puts it into the prompt.

The workflow's event payload (`$GITHUB_EVENT_PATH` of an `issues` event) holds the new issue as
its author wrote it. It reaches the prompt only through here: its title, author and body cleaned
and JSON-quoted, one per line, inside a fence longer than any backtick run in them, exactly as
an issue excerpt is (corrections/render/files.py), and bounded like one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.untrusted import fence_for, json_text
from commandline.event import EventError, read_event_payload
from corrections.render.files import MAX_BODY, MAX_LOGIN, bounded_block, bounded_line, safe_title
from corrections.render.prompt_budget import NEW_ISSUE_MAX_TOKENS
from corrections.render.templating import render_template
from corrections.render.tokens import count_tokens, fit_tokens


@dataclass(frozen=True)
class NewIssue:
    """The issue being analysed, as the event gave it (untrusted text, not yet cleaned)."""

    number: int
    title: str
    author: str | None
    body: str


def _issue_of(payload: Any, path: Path) -> NewIssue:
    issue = payload.get("issue") if isinstance(payload, dict) else None
    if not isinstance(issue, dict):
        raise EventError(f"{path}: the event names no issue (expected the payload of an `issues` event)")
    number = issue.get("number")
    if isinstance(number, bool) or not isinstance(number, int) or number <= 0:
        raise EventError(f"{path}: issue.number: expected a positive issue number")
    title, body, user = issue.get("title"), issue.get("body"), issue.get("user")
    login = user.get("login") if isinstance(user, dict) else None
    return NewIssue(
        number=number,
        title=title if isinstance(title, str) else "",
        author=login if isinstance(login, str) else None,
        body=body if isinstance(body, str) else "",  # GitHub sends null for an empty body
    )


def read_event(path: Path, number: int | None) -> NewIssue:
    """The event's issue; `number` (the command's --issue), when given, must be the event's."""
    issue = _issue_of(read_event_payload(path), path)
    if number is not None and issue.number != number:
        raise EventError(f"{path}: the event's issue is #{issue.number}, not --issue {number}")
    return issue


def _fitted_body(body: str, max_tokens: int = NEW_ISSUE_MAX_TOKENS) -> str:
    """The body bounded like an excerpt's, then to `max_tokens`, so that it always fits."""
    text, cut = fit_tokens(bounded_block(body, MAX_BODY), max_tokens)
    return text + f" [... cut to {max_tokens:,} tokens]" if cut else text


def new_issue_section(issue: NewIssue) -> str:
    """The prompt's section on the issue being analysed: its values fenced as JSON strings.

    The fence is counted in the new issue's share (NEW_ISSUE_MAX_TOKENS): a body of backticks
    makes it as long as their longest run, twice; the body is cut until it fits with its fences.
    """
    author = json_text(bounded_line(issue.author, MAX_LOGIN) if issue.author else "ghost")
    head = [f"title: {safe_title(issue.title)}", f"author: {author}"]
    room = NEW_ISSUE_MAX_TOKENS
    while True:
        lines = [*head, f"body: {json_text(_fitted_body(issue.body, room))}"]
        fence = fence_for(lines)
        over = count_tokens("\n".join(lines)) + 2 * count_tokens(fence) - NEW_ISSUE_MAX_TOKENS
        if over <= 0 or room <= 1:
            break
        room = max(1, room - over)
    return render_template("prompt-new-issue.md.j2", number=issue.number, lines=lines, fence=fence)
