"""The fixed note that says what could not be read and why: program text only, never GitHub's."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, get_args

from queries.advice import advice

# A part of a run that may be missing; mypy checks every name the reader writes.
Part = Literal[
    "issues", "labels", "scan", "timelines", "reactions", "permissions", "learnings", "config", "bodies"
]

# What may be missing, in the words the note uses.
PARTS: dict[Part, str] = {
    "issues": "some issues of the scan (left out of the window)",
    "labels": "labels.md (no label counted as a correction)",
    "scan": "later pages of the scan for the window",
    "timelines": "later pages of some long timelines",
    "reactions": "👎 reactions on some analyses (not counted)",
    "permissions": "permissions of some people (their 👎 and comments not counted)",
    "learnings": "the learnings file",
    "config": "the configuration file at the base ref (defaults used)",
    "bodies": "the text of some issues of the window (shown without it)",
}

# The category of parts a run left unread on purpose: its bounds (pages per timeline, detail
# rounds) were reached. GitHub did not fail, and the note must not say it did.
CAPS_REACHED = "caps reached"

OFF = "Corrections are off ([context] max_analyzed = 0): nothing was read from GitHub."
# The action learns it from the base branch's configuration, read in its first request.
OFF_AT_BASE = (
    "Corrections are off ([context] max_analyzed = 0 in the base branch's configuration): "
    "nothing more was read from GitHub."
)


@dataclass(frozen=True)
class TrailFacts:
    """What explain's reading of one issue could not give (corrections/read/trail.py): a cut
    timeline, parts missing (👎 not read: `reactors` None)."""

    truncated: bool = False
    missing: Collection[Part] = ()


assert set(PARTS) == set(get_args(Part)), "every part has its words"


def part(name: str) -> Part:
    """A part named by the round trips (queries/ answers in strings); an unknown name is a bug."""
    for known in get_args(Part):
        if name == known:
            return known  # type: ignore[no-any-return]
    raise ValueError(f"unknown missing part {name!r}: add it to corrections.read.notes.Part and PARTS")


# At most this many accounts are named in the warning that the assistant's login seems wrong.
MAX_NAMED_ACCOUNTS = 3


def markers_by_others(login: str, accounts: Mapping[tuple[str, str], int]) -> str:
    """The warning when the scan found analysis markers, but none in the configured assistant's
    comments: name who wrote them (most issues first) and what to set."""
    ranked = sorted(accounts.items(), key=lambda item: (-item[1], item[0]))
    named = [
        f"`{who}` ({kind}, {count} issue{'' if count == 1 else 's'})"
        for (who, kind), count in ranked[:MAX_NAMED_ACCOUNTS]
    ]
    more = len(ranked) - len(named)
    if more:
        named.append(f"{more} more account{'' if more == 1 else 's'}")
    return (
        f"no analysis by the assistant `{login}` was found; analysis markers are in comments by "
        f"{', '.join(named)}: set [assistant] login (or the action's input assistant-login) to the "
        "account that posts the analyses (github.token posts as github-actions)"
    )


def failed(category: str) -> str:
    """GitHub gave nothing usable."""
    return f"Corrections could not be read from GitHub ({category}); this analysis has no corrections."


# The failure of a read that stopped on a bug of the reader itself: never GitHub's fault.
INTERNAL = "internal error"
INTERNAL_NOTE = (
    "Corrections could not be read: the reader itself failed (an internal error, not GitHub's); "
    "this analysis has no corrections."
)


def _words(name: Part, people_not_read: int, lookup_cap: int | None) -> str:
    """A missing part in the note's words; people's permissions counted when the count is known."""
    if name != "permissions" or not people_not_read:
        return PARTS[name]
    people = "person" if people_not_read == 1 else "people"
    cap = "" if lookup_cap is None else f"; at most {lookup_cap} are looked up through REST in a run"
    return f"permissions of {people_not_read} {people} (their 👎 and comments not counted{cap})"


def config_unread(where: str, category: str) -> str:
    """The configuration at the base ref exists or may exist, but GitHub did not give it: the run
    stops rather than read with the defaults in its place (a configured login would be lost)."""
    return (
        f"The configuration {where} could not be read from GitHub ({category}): corrections were "
        "not read, rather than read with the defaults in its place; this analysis has no corrections."
    )


def partial(
    missing: Iterable[Part],
    categories: Iterable[str],
    *,
    people_not_read: int = 0,
    lookup_cap: int | None = None,
) -> str | None:
    """Some parts are missing; None when nothing is.

    `people_not_read`: how many people's permissions are unknown at the end; `lookup_cap`: the
    cap on REST look-ups, when it is what left some of them unasked (CAPS_REACHED, not a failure).
    """
    parts = [_words(name, people_not_read, lookup_cap) for name in sorted(set(missing))]
    if not parts:
        return None
    reasons = set(categories)
    capped = CAPS_REACHED in reasons
    reasons.discard(CAPS_REACHED)
    if capped and not reasons:
        return (
            "Some corrections were not read: the reader's caps on what one run reads were reached "
            f"(GitHub did not fail): missing {'; '.join(parts)}."
        )
    why = ", ".join(sorted(reasons)) or "GitHub failed"
    if capped:
        why += "; the reader's caps were reached"
    return f"Some corrections could not be read from GitHub ({why}): missing {'; '.join(parts)}."


def scan_bound(found: int, wanted: int, issues: int) -> str:
    """The scan's bound ended the search for analyses before the window was full."""
    return (
        f"The window holds {found} of the {wanted} analyses asked for ([context] max_analyzed): the "
        f"scan stopped at its bound, the {issues:,} most recently updated issues ([context] "
        "scan_pages), and older analysed issues were not read (issues updated since, by a label "
        "sweep for instance, came first)."
    )


def joined(*notes: str | None) -> str | None:
    """Several notes as one (None when there is none)."""
    found = [note for note in notes if note]
    return " ".join(found) if found else None


def permissions_refused() -> str:
    """GitHub refused to tell people's permission through both APIs (GraphQL's collaborator list,
    then REST's 403 to a token without push access): the permission that would fix it."""
    return (
        "GitHub refused to tell those permissions (a token without push access): use a token whose "
        "account has push (write) access to the repository, such as the workflow's `github.token`."
    )


def what_to_check(category: str | None, *, actions: bool) -> str:
    """One sentence saying what to check when nothing could be read (empty when there is no advice):
    GitHub's failures as queries.advice words them, and the reader's own."""
    if category == INTERNAL:
        return "The log above shows where it failed; please report it with that log."
    return advice(category, actions=actions)
