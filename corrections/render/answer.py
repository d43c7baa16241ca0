"""`corrections answer`: the model's answer made safe to post, with its marker and its labels.

The model read an issue a stranger wrote, so its answer is untrusted text like the issue itself.
Before anything is posted it is parsed as the JSON object the prompt asked for
(`{"labels": [...], "duplicate_of": N | null, "analysis": "..."}`, a ```json fence around it
allowed), and:

- labels: only names of the vocabulary (`corrections.json`'s `vocabulary`, from labels.md),
  compared case-insensitively and spelled as labels.md spells them;
- duplicate_of: a positive issue number other than this issue's, else none;
- the analysis: invisible characters removed (assistant/untrusted.py), every `@name` and
  `@org/team` neutralised (its `@` becomes U+FF20, the full-width at sign, which mentions
  nobody), every
  reference to an issue neutralised unless it names an issue of this repository the context
  knows (`#N` with N in the window, a correction, this issue or the duplicate named; `GH-N`
  alike; `owner/repo#N` always), every URL of an issue, pull request or discussion on
  github.com neutralised (`github[.]com`: no link, so no "mentioned this" on it) unless it is one
  of those issues of this repository, every `&` written `&amp;` (no character reference is
  decoded, with or without its `;`, in Markdown or in an HTML block), every `<!` and `<?` neutralised (`&lt;!`: no HTML comment, so
  no marker of its own and nothing hidden) and the raw-text elements (`<script`, `<pre`, ...) that
  would run past the marker, a code fence it left open closed, and its length
  bounded so that the comment with its marker fits GitHub's 65,536 characters.

The comment is the analysis, a blank line, and the marker `corrections marker --context` writes
(corrections/rules/analysis_marker.py: with its receipt, what the model was given), last.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from assistant.untrusted import clean_block
from corrections.render.context_folder import PromptError, read_index
from corrections.rules.analysis_marker import MarkerError, Receipt, analysis_marker, folder_receipt

# GitHub refuses a comment body longer than this ("Body is too long (maximum is 65536 characters)").
MAX_COMMENT_CHARS = 65_536
# The answer is cut to a few times that before it is cleaned: cleaning more is cleaning cut text.
_PRE_CUT = 4
# `@` where GitHub would start a mention: not after a word character, before a name's first one.
_MENTION = re.compile(r"(?<![0-9A-Za-z_])@(?=[0-9A-Za-z])")
# An issue reference GitHub links: `#N`, `GH-N`, with what stands before it (a repository or owner
# name makes it another repository's).
_REFERENCE = re.compile(r"(?P<before>[\w./-]?)(?P<mark>#|\bGH-)(?P<number>[0-9]+)\b", re.IGNORECASE)
# A URL GitHub links to an issue, a pull request or a discussion, and posts "mentioned this" on.
_THREAD_URL = re.compile(
    r"(?P<host>\bgithub\.com)/(?P<repo>[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100})"
    r"/(?:issues|pull|pulls|discussions)/(?P<number>[0-9]{1,10})",
    re.IGNORECASE,
)
# HTML elements whose content runs to their closing tag, past blank lines (CommonMark's HTML block
# of type 1, and what a browser reads as raw text): left open, they would swallow the marker and
# whatever text follows.
_RAW_TEXT_ELEMENT = re.compile(
    r"<(?=/?(?:script|style|textarea|pre|title|xmp|iframe|noscript|noembed|noframes|plaintext)\b)",
    re.IGNORECASE,
)
_FULL_WIDTH_AT = "\uff20"
_FULL_WIDTH_HASH = "\uff03"
_NON_BREAKING_HYPHEN = "\u2011"


class AnswerError(ValueError):
    """An answer with nothing safe to post; the message says why, in one line."""


@dataclass(frozen=True)
class Answer:
    """What may be posted: the comment body (marker last) and the labels to apply."""

    body: str
    labels: tuple[str, ...]
    duplicate_of: int | None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Known:
    """What the context knows: the vocabulary (labels.md's spelling) and this repository's issues."""

    vocabulary: tuple[str, ...] = ()
    issues: frozenset[int] = frozenset()
    # The marker's receipt: what the model was given (corrections/rules/analysis_marker.py), when known.
    receipt: Receipt | None = None
    repository: str = ""  # owner/name: links to its known issues are kept


def read_known(folder: Path) -> Known:
    """The vocabulary, the issues and the receipt of `corrections.json` in a context folder."""
    try:
        index = read_index(folder)
        receipt = folder_receipt(folder)
    except (PromptError, MarkerError) as error:
        raise AnswerError(str(error)) from error
    issues = frozenset(index.window) | {entry.number for entry in index.corrections}
    return Known(
        vocabulary=tuple(index.vocabulary), issues=issues, receipt=receipt, repository=index.repository
    )


def _unfenced(text: str) -> str:
    """`text` without a code fence around it (```json ... ```), as models often answer."""
    lines = text.strip().split("\n")
    opening, closing = lines[0].strip(), lines[-1].strip()
    fenced = len(lines) >= 2 and opening.startswith("```") and bool(closing) and set(closing) == {"`"}
    if fenced and opening.strip("`").strip().casefold() in {"", "json"}:
        return "\n".join(lines[1:-1])
    return text


def parse_response(text: str) -> dict[str, Any]:
    """The JSON object of the model's answer, a ```json fence around it allowed."""
    try:
        found = json.loads(_unfenced(text))
    except (ValueError, RecursionError) as error:
        raise AnswerError(f"the model did not answer with JSON ({error}); nothing to post") from error
    if not isinstance(found, dict):
        raise AnswerError("the model did not answer with a JSON object; nothing to post")
    return found


def chosen_labels(wanted: Any, vocabulary: Sequence[str]) -> tuple[tuple[str, ...], int]:
    """The vocabulary labels among `wanted`, in labels.md's order and spelling (names compare
    case-insensitively), and how many of `wanted` were left out: not strings, not in the
    vocabulary, or holding a comma (which `gh issue edit --add-label` would split)."""
    items = wanted if isinstance(wanted, list) else []
    usable = {name.casefold() for name in vocabulary if "," not in name}
    asked = [item.strip().casefold() if isinstance(item, str) else None for item in items]
    chosen = tuple(name for name in vocabulary if name.casefold() in usable and name.casefold() in asked)
    return chosen, sum(1 for name in asked if name not in usable)


def chosen_duplicate(value: Any, issue: int) -> int | None:
    """`duplicate_of` when it is a positive issue number other than `issue`, else None."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0 or value == issue:
        return None
    return value


def neutralised(text: str, known: Collection[int], repository: str = "") -> str:
    """`text` with no character reference (every `&` is `&amp;`: `&#64;`, `&commat;` and, in an
    HTML block, `&#64alice` would render as `@`), no HTML comment or declaration (`<!`, `<?`), no
    raw-text element (`<script`, `<pre`, ...), no mention, no reference to an issue outside
    `known` and no link to an issue, pull request or discussion but those of `known` in
    `repository` (owner/name). Every replacement keeps the text readable; none is an invisible
    character."""
    text = text.replace("&", "&amp;")
    text = text.replace("<!", "&lt;!").replace("<?", "&lt;?")
    text = _RAW_TEXT_ELEMENT.sub("&lt;", text)
    text = _MENTION.sub(_FULL_WIDTH_AT, text)

    def reference(match: re.Match[str]) -> str:
        before, mark, number = match.group("before"), match.group("mark"), match.group("number")
        if not before and int(number) in known:  # `owner/repo#N`, `name#N`: another repository
            return match.group(0)
        safe = _FULL_WIDTH_HASH if mark == "#" else mark[:-1] + _NON_BREAKING_HYPHEN
        return before + safe + number

    def link(match: re.Match[str]) -> str:
        ours = repository and match.group("repo").casefold() == repository.casefold()
        if ours and int(match.group("number")) in known:
            return match.group(0)
        return match.group(0).replace(match.group("host"), "github[.]com", 1)

    return _REFERENCE.sub(reference, _THREAD_URL.sub(link, text))


def _open_fence(text: str) -> tuple[str, int] | None:
    """The closing line a top-level code fence that `text` leaves open needs, and the line it
    opens on; None when every fence is closed. Without the closing line the marker below would be
    inside the code block, shown as text. Only the block structure is parsed (inline parsing of a
    hostile text takes seconds and changes no fence)."""
    lines = text.split("\n")
    blocks = MarkdownIt("commonmark").disable(["inline", "text_join"])
    for token in blocks.parse(text):
        if token.type != "fence" or token.level != 0 or token.map is None:
            continue
        # A closed fence ends on its closing line; an open one runs to the end, though its map
        # may stop before trailing blank lines, which the marker's blank line would then join.
        start, end = token.map
        last = lines[end - 1].strip() if end - start > 1 else ""
        markup = token.markup
        if not (len(last) >= len(markup) and set(last) == {markup[0]}):
            return markup, start
    return None


def _cut(text: str, limit: int) -> str:
    """At most `limit` characters, a cut marked with `…` and made between words where one is near
    (a cut inside `#1234` would leave a reference to #12)."""
    if len(text) <= limit:
        return text
    end = max(0, limit - 1)
    start = end
    while start > end - 100 and start > 0 and text[start - 1].isalnum():
        start -= 1
    return text[: start if start > end - 100 else end] + "…"


def comment_text(analysis: str, known: Collection[int], room: int, repository: str = "") -> str:
    """The analysis as it may be posted, in at most `room` characters."""
    cleaned = neutralised(clean_block(analysis[: room * _PRE_CUT]), known, repository).strip("\n")
    text = _cut(cleaned, room)
    while (open_fence := _open_fence(text)) is not None:
        closing, start = open_fence
        lines = text.split("\n")
        opening_end = len("\n".join(lines[: start + 1]))
        if room - len(closing) - 1 > opening_end:  # room for the opening line, the rest, the closing
            return _cut(text, room - len(closing) - 1) + "\n" + closing
        # A fence whose closing line would not fit after its opening: the text stops before it.
        kept = _cut("\n".join(lines[:start]).rstrip("\n"), max(0, room - 3))
        text = f"{kept}\n\n…" if kept else "…"
    return text


def clean_answer(
    response: str,
    *,
    issue: int,
    known: Known,
    existing: Collection[str] | None = None,
    key: str | None = None,
) -> Answer:
    """The comment and labels to post for the model's `response` on `issue`; with `existing` (the
    repository's labels), a label of labels.md the repository does not have is left out of both the
    marker and the labels to apply, so that the marker names only labels that were applied."""
    found = parse_response(response)
    warnings: list[str] = []
    labels, left_out = chosen_labels(found.get("labels"), known.vocabulary)
    if left_out:
        warnings.append(f"{left_out} of the labels the model chose are not in labels.md: left out")
    if existing is not None:
        have = {name.strip().casefold() for name in existing}
        missing = [name for name in labels if name.casefold() not in have]
        labels = tuple(name for name in labels if name.casefold() in have)
        if missing:
            warnings.append(
                "labels of labels.md that the repository does not have, not applied: "
                f'{", ".join(missing)} (create them: docs/adopting.md, "The labels")'
            )
    duplicate = chosen_duplicate(found.get("duplicate_of"), issue)
    if duplicate is None and found.get("duplicate_of") is not None:
        warnings.append("duplicate_of is not the number of another issue: no duplicate notice")
    analysis = found.get("analysis")
    if not isinstance(analysis, str):
        warnings.append("the answer has no analysis text: the comment holds only the marker")
        analysis = ""
    marker = analysis_marker(labels, duplicate, context=known.receipt, number=issue, key=key)
    room = MAX_COMMENT_CHARS - len(marker) - len("\n\n\n")
    allowed = known.issues | {issue} | ({duplicate} if duplicate is not None else set())
    text = comment_text(analysis, allowed, room, known.repository)
    body = f"{text}\n\n{marker}\n" if text else f"{marker}\n"
    return Answer(body=body, labels=labels, duplicate_of=duplicate, warnings=tuple(warnings))
