"""`corrections answer`: the model's answer made safe to post, with its marker and its labels.

The model read an issue a stranger wrote, so its answer is untrusted text like the issue itself.
Before anything is posted it is decoded by the one parser of the model's answer
(corrections/render/model_answer.py: `{"labels": [...], "duplicate_of": N | null, "analysis":
"..."}`, a ```json fence around it allowed), and:

- labels: only names of the vocabulary (`corrections.json`'s `vocabulary`, from labels.md),
  compared case-insensitively and spelled as labels.md spells them;
- duplicate_of: a positive issue number other than this issue's, else none;
- with the second look (`corrections answer`, corrections/rules/second_look.py), the draft held
  against what the maintainers and GitHub already say, what it left out said in one short line
  each and recorded in the marker;
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

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

from assistant.untrusted import clean_block
from corrections.render.context_folder import PromptError, read_index
from corrections.render.model_answer import AnswerError, chosen_labels, decode_answer
from corrections.rules import second_look
from corrections.rules.analysis_marker import LeftOut, Receipt, analysis_marker
from corrections.rules.second_look import Neighbour

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


@dataclass(frozen=True)
class Answer:
    """What may be posted: the comment body (marker last) and the labels to apply."""

    body: str
    labels: tuple[str, ...]
    duplicate_of: int | None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Known:
    """What the context knows: the vocabulary (labels.md's spelling) and this repository's issues;
    for the second look, the repository, whether it is on, the targets of notices maintainers
    objected to and the corrected issues nearest first."""

    vocabulary: tuple[str, ...] = ()
    issues: frozenset[int] = frozenset()
    # The marker's receipt: what the model was given (corrections/rules/analysis_marker.py), when known.
    receipt: Receipt | None = None
    repository: str | None = None  # owner/name: links to its known issues are kept
    second_look: bool = True
    objected: frozenset[int] = frozenset()
    neighbours: tuple[Neighbour, ...] = ()
    kept_in_window: frozenset[str] = frozenset()  # labels (case-folded) some analysis kept


def read_known(folder: Path) -> Known:
    """The vocabulary, the issues, the receipt and the second look's facts of `corrections.json`
    in a context folder. A correction whose kept labels the folder does not record (an earlier
    version wrote it) is no neighbour: the vote cannot tell that none kept a label."""
    try:
        index = read_index(folder)
        receipt = index.receipt(folder / "corrections.json")
    except PromptError as error:
        raise AnswerError(str(error)) from error
    issues = frozenset(index.window) | {entry.number for entry in index.corrections}
    objected = frozenset(
        c.duplicate.of
        for c in index.corrections
        if c.duplicate is not None and c.duplicate.by == "maintainer"
    )
    neighbours = tuple(
        Neighbour(
            c.number,
            frozenset(n.casefold() for n in c.labels_removed),
            frozenset(n.casefold() for n in c.labels_kept),
        )
        for c in index.corrections
        if c.labels_kept is not None
    )
    return Known(
        vocabulary=tuple(index.vocabulary),
        issues=issues,
        receipt=receipt,
        repository=index.repository,
        second_look=index.second_look,
        objected=objected,
        neighbours=neighbours,
        kept_in_window=frozenset(name.casefold() for name, n in index.kept.items() if n.kept > 0),
    )


@dataclass(frozen=True)
class Draft:
    """The model's answer as it could be posted before the second look: labels of labels.md (and
    of the repository), the duplicate target, the text, and the warnings so far."""

    labels: tuple[str, ...]
    duplicate_of: int | None
    analysis: str
    warnings: tuple[str, ...] = ()


def draft_answer(
    response: str, *, issue: int, known: Known, existing: Collection[str] | None = None
) -> Draft:
    """The draft of the model's `response` on `issue` (corrections/render/model_answer.py decodes
    it; AnswerError when it is no answer); with `existing` (the repository's labels), a label of
    labels.md the repository does not have is left out, so that the marker names only labels that
    were applied."""
    found = decode_answer(response, issue)
    warnings = list(found.notes)
    labels, left_out = chosen_labels(found.labels, known.vocabulary)
    left_out += found.not_names
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
    return Draft(labels, found.duplicate_of, found.analysis, tuple(warnings))


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
        raw = lines[end - 1] if end - start > 1 else ""
        last = raw.strip()
        markup = token.markup
        # A closing fence is indented by at most three spaces (CommonMark): `    ```` is content.
        indented = len(raw) - len(raw.lstrip(" ")) > 3
        if indented or not (len(last) >= len(markup) and set(last) == {markup[0]}):
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


def posted(
    draft: Draft,
    *,
    issue: int,
    known: Known,
    left_out: Sequence[LeftOut] = (),
    key: str | None = None,
) -> Answer:
    """The comment and labels to post for a draft; `left_out`: what the second look left out of it
    (corrections/rules/second_look.py), said in one short line each below the text and recorded
    in the marker. A target left out stays a reference only when the context knows it anyway.
    `key` (ASSISTANT_MARKER_KEY): the marker is sealed for `issue` with it."""
    marker = analysis_marker(
        draft.labels, draft.duplicate_of, context=known.receipt, left_out=left_out, number=issue, key=key
    )
    said = "\n".join(second_look.line(entry) for entry in left_out)
    tail = f"\n\n{said}" if said else ""
    room = MAX_COMMENT_CHARS - len(marker) - len(tail) - len("\n\n\n")
    allowed = known.issues | {issue} | ({draft.duplicate_of} if draft.duplicate_of is not None else set())
    text = comment_text(draft.analysis, allowed, room, known.repository or "")
    text = f"{text}{tail}" if text else said
    body = f"{text}\n\n{marker}\n" if text else f"{marker}\n"
    return Answer(body=body, labels=draft.labels, duplicate_of=draft.duplicate_of, warnings=draft.warnings)


def clean_answer(
    response: str,
    *,
    issue: int,
    known: Known,
    existing: Collection[str] | None = None,
    key: str | None = None,
) -> Answer:
    """The comment and labels to post for the model's `response` on `issue`, without the second
    look (`draft_answer`, then `posted`); sealed with `key` for a shared account."""
    draft = draft_answer(response, issue=issue, known=known, existing=existing)
    return posted(draft, issue=issue, known=known, key=key)
