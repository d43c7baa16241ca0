"""Where the sync writes, as read: its own pull request told from anyone else's, the stores on both
branches, and where its scan starts (the marks its own pull request records). Pure: the target in,
decisions out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from assistant.identity import Identity, is_account
from learnings.rules.model import Learning
from learnings.store.jsonl import LoadedLearnings, parse_jsonl, to_line
from learnings.sync.marks import read_marks
from queries.advice import advice
from queries.models import Blob
from queries.sync_fetch import Marks, SyncTarget
from queries.sync_models import PullRef

# How far back a first sync (no mark, no recorded source) reads.
FIRST_LOOKBACK = timedelta(days=90)


class SyncError(Exception):
    """The sync could not finish; the message is one line for the user (fixed words and numbers)."""


def unread(owner: str, name: str, category: str) -> str:
    """Why the sync could not read the repository, and what to check (queries.advice: a token
    without `issues: read` is said so, never "not found")."""
    check = advice(category, actions=False)
    return f"could not read {owner}/{name} from GitHub: {category}" + (f". {check}" if check else "")


def store_text(blob: Blob | None, where: str) -> str:
    """The text of a store file read through GitHub ("" when there is none)."""
    if blob is None:
        return ""
    if blob.is_binary or blob.text is None:
        raise SyncError(f"the learnings file on {where} is not text; fix it before syncing")
    if blob.is_truncated:
        raise SyncError(f"the learnings file on {where} is too large to read through GitHub")
    return blob.text


def sourced(learnings: tuple[Learning, ...]) -> set[int]:
    """The comment ids that are the source of a learning: never recorded again."""
    return {learning.source.comment for learning in learnings if learning.source.comment is not None}


@dataclass(frozen=True)
class SyncPulls:
    """The open pull requests from a branch of the sync branch's name: the sync's own, and others."""

    own: PullRef | None
    forks: tuple[PullRef, ...]  # from another repository's branch of that name
    others_here: tuple[PullRef, ...]  # from this repository's sync branch, opened by someone else


def own_pull(target: SyncTarget) -> SyncPulls:
    """Which open pull request is the sync's own: head in this repository, author the token's account.

    Neither the branch name nor the base is proof: `pullRequests(headRefName:)` also matches pull
    requests from forks, opened by anyone, and anyone with push access may open one from the branch.
    """
    me = Identity.of_viewer(target.viewer)
    own: list[PullRef] = []
    forks: list[PullRef] = []
    others: list[PullRef] = []
    for pull in target.pulls:
        if not here(pull, target):
            forks.append(pull)
        elif is_account(pull.author, me):
            own.append(pull)
        else:
            others.append(pull)
    return SyncPulls(own=own[0] if own else None, forks=tuple(forks), others_here=tuple(others))


def here(pull: PullRef, target: SyncTarget) -> bool:
    """The pull request's head branch is in this repository (not a fork)."""
    head = pull.head_repository
    return (
        not pull.is_cross_repository
        and head is not None
        and head.name_with_owner.casefold() == target.name_with_owner.casefold()
    )


def foreign_notes(pulls: SyncPulls, branch: str) -> list[str]:
    return [
        f"pull request #{pull.number} comes from a branch named {branch} in another repository "
        "(a fork); it is not the sync's own and was ignored"
        for pull in pulls.forks
    ]


@dataclass(frozen=True)
class State:
    """The target as read, with both stores parsed, and the sync's own open pull request if any."""

    target: SyncTarget
    base_text: str
    base: LoadedLearnings
    working_text: str  # the store as the sync branch will build on
    working: LoadedLearnings
    pull: PullRef | None  # the sync's own open pull request
    on_branch: bool  # its own open pull request exists: build on its branch
    marks: Marks | None  # how far the last sync read, as its own pull request says


def read_state(target: SyncTarget, store_path: str) -> State:
    pulls = own_pull(target)
    if pulls.own is None and pulls.others_here:
        other = pulls.others_here[0]
        who = f"@{other.author.login}" if other.author is not None else "a deleted account"
        raise SyncError(
            f"pull request #{other.number} by {who} is open from {target.branch} and is not the sync's "
            "own; nothing was written (close it, or sync with a token of that account)"
        )
    base_text = store_text(target.base_file, target.default_branch)
    base = parse_jsonl(base_text, source=f"{target.default_branch}:{store_path}")
    on_branch = pulls.own is not None and target.branch_head is not None
    if on_branch:
        working_text = store_text(target.branch_file, target.branch)
        working = parse_jsonl(working_text, source=f"{target.branch}:{store_path}")
    else:
        working_text, working = base_text, base
    return State(
        target, base_text, base, working_text, working, pulls.own, on_branch, marks_of(target, pulls)
    )


def marks_of(target: SyncTarget, pulls: SyncPulls) -> Marks | None:
    """The marks its own open pull request records, else its newest merged one's."""
    me = Identity.of_viewer(target.viewer)
    merged = [pull for pull in target.merged if here(pull, target) and is_account(pull.author, me)]
    own = [pulls.own] if pulls.own is not None else []
    return read_marks(pull.body for pull in [*own, *merged])


def start_marks(state: State, lookback: timedelta, now: datetime) -> Marks:
    """Where the scan starts: the marks its own pull request records, else the newest recorded
    learning minus `lookback` (so a 👍 given a while after that sync is still seen), else (a first
    sync) `FIRST_LOOKBACK` before `now`, not the repository's first issue."""
    if state.marks is not None:
        return state.marks
    created = [
        learning.createdAt
        for learning in (*state.base.learnings, *state.working.learnings)
        if learning.source.comment is not None
    ]
    since = max(created) - lookback if created else now - FIRST_LOOKBACK
    return Marks(issues=since, pulls=since)


def differs(state: State, text: str) -> tuple[Learning, ...]:
    """The learnings of the branch's store that are new or changed against the default branch."""
    base = {learning.id: to_line(learning) for learning in state.base.learnings}
    loaded = parse_jsonl(text, source="branch")
    return tuple(learning for learning in loaded.learnings if base.get(learning.id) != to_line(learning))
