"""What a sync may record: commands and proposals found in comments, then decided by permissions.

Pure functions over what the scan read (queries.sync_fetch.Thread). A comment whose id is already
the source of a recorded learning (on the default branch or the sync branch) is never read again,
so editing it later changes nothing. Commands count only from pushers (WRITE, MAINTAIN, ADMIN, as
GitHub reports the permission); proposals only from the assistant, accepted by a pusher's 👍
(learnings.rules.proposals.verdict). Notes say in fixed words, numbers and logins why something found
was not recorded.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import ValidationError

from assistant.identity import Identity, is_assistant, is_person, may_push, normalize_login
from assistant.markers import NO_KEY, Marker, counted
from learnings.rules.comment_commands import (
    CommandProblem,
    IgnoreRule,
    LearningCommand,
    NotDuplicate,
    Remember,
    learning_commands,
)
from learnings.rules.model import Source
from learnings.rules.proposals import NAME as PROPOSAL
from learnings.rules.proposals import ProposalError, parse_proposal, verdict
from learnings.store.suppression import FINDING_MARKER, Finding, findings_in
from queries.requests import lookup_order
from queries.sync_fetch import Reactors, Thread
from queries.sync_models import ThreadComment

ThreadKey = tuple[Literal["issue", "pull_request"], int]


def where(kind: str, number: int, comment: int | None = None) -> str:
    """`issue #5, comment 1234` in fixed words."""
    thread = f"{'pull request' if kind == 'pull_request' else 'issue'} #{number}"
    return f"{thread}, comment {comment}" if comment is not None else thread


@dataclass(frozen=True)
class CommandFound:
    """A learnings command in a person's comment, not yet checked against permissions."""

    thread: ThreadKey
    comment: int
    author: str
    command: Remember | IgnoreRule
    node_id: str = ""  # the comment's node id, where the sync answers
    answered: frozenset[str] = frozenset()  # the token's own reactions on the comment


@dataclass(frozen=True)
class ProposalFound:
    """A proposal in one of the assistant's comments, waiting for its reactions (which are read
    with the comment's body and last edit as they are then: `decide` judges those)."""

    thread: ThreadKey
    comment: int
    node_id: str


@dataclass
class Found:
    """Everything the scan turned up that is not recorded yet."""

    commands: list[CommandFound] = field(default_factory=list)
    proposals: list[ProposalFound] = field(default_factory=list)
    findings: dict[ThreadKey, list[Finding]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # Each author's authorAssociation (lower-cased login): an order of look-ups, never proof.
    associations: dict[str, str] = field(default_factory=dict)

    def logins(self, reactors: Mapping[str, Reactors]) -> list[str]:
        """The logins whose permission decides something: command authors and proposal reactors."""
        logins = [found.author for found in self.commands]
        for proposal in self.proposals:
            seen = reactors.get(proposal.node_id)
            if seen is not None:
                logins += [reactor.login for reactor in (*seen.thumbs_up, *seen.thumbs_down)]
        return list(dict.fromkeys(logins))

    def ordered_logins(
        self, reactors: Mapping[str, Reactors], reread: Iterable[Thread], *, refused: str
    ) -> list[str]:
        """`logins` in the order their permission is looked up (queries.requests.lookup_order):
        authors of commands read again (`reread`: they waited a run), then OWNER, MEMBER,
        COLLABORATOR, the rest, and last those already answered `refused` (👀: no pusher)."""
        again = {comment.id for thread in reread for comment in thread.comments}
        return lookup_order(
            self.logins(reactors),
            first=[found.author for found in self.commands if found.node_id in again],
            associations=self.associations,
            later=[found.author for found in self.commands if refused in found.answered],
        )


# Where a comment was read: the conversation (proposals count there), a review's body, or a
# review thread (`_InThread`: its first comment's finding, for an `ignore-rule` without fingerprint).
_CONVERSATION = "conversation"
_REVIEW = "review"


@dataclass(frozen=True)
class _InThread:
    """A reply in a review thread, and the one finding its first comment (the assistant's) marks."""

    finding: Finding | None


def _read(thread: Thread, assistant: Identity) -> Iterator[tuple[ThreadComment, str | _InThread]]:
    """Every comment of a thread with where it was read: the conversation, reviews, review threads."""
    for comment in thread.comments:
        yield comment, _CONVERSATION
    for review in thread.reviews:
        yield review, _REVIEW
    for comments in thread.review_threads:
        yield from ((comment, _REVIEW) for comment in comments[:1])
        about = _InThread(_thread_finding(comments, thread.number, assistant))
        yield from ((reply, about) for reply in comments[1:])


def _thread_finding(comments: tuple[ThreadComment, ...], number: int, assistant: Identity) -> Finding | None:
    """The finding a review thread is about: the one its first comment, by the assistant, marks
    (where assistant.markers.counted says a finding counts)."""
    first = comments[0] if comments else None
    if first is None or not is_assistant(first.author, assistant):
        return None
    findings, _bad = findings_in(first.body, counted(first.body, FINDING_MARKER, number, assistant).markers)
    return findings[0] if len(findings) == 1 else None


def find_sources(
    threads: Iterable[Thread], recorded: Collection[int], assistant: Identity, command_word: str
) -> Found:
    """Commands, proposals and the assistant's findings in the threads' comments, review bodies and
    review threads not yet recorded.

    The author is checked before a body is parsed: markers count only in the assistant's comments.
    An `ignore-rule` without a fingerprint names the finding of the review thread it replies in.
    """
    reader = _Reader(Found(), recorded, assistant, command_word)
    for thread in threads:
        reader.number = thread.number
        key: ThreadKey = (thread.kind, thread.number)
        for comment, place in _read(thread, assistant):
            reader.comment(key, comment, place)
        if thread.older_reviews:
            reader.found.notes.append(
                f"{where(*key)}: reviews or review comments past the scan's page were not read"
            )
    if reader.off:
        reader.found.notes.append(
            f"{reader.off} proposal or finding marker(s) of the assistant's account not counted: {NO_KEY}"
        )
    return reader.found


@dataclass
class _Reader:
    """What one scan found so far, and the rules' inputs."""

    found: Found
    recorded: Collection[int]
    assistant: Identity
    command_word: str
    number: int = 0  # the issue or pull request being read
    off: int = 0  # markers not counted because the account is shared and the key is not set

    def _counted(self, body: str, name: str, here: str) -> list[Marker]:
        """The `name` markers of the assistant's comment that count; a note for the others."""
        found = counted(body, name, self.number, self.assistant)
        if found.refused == NO_KEY:
            self.off += 1
        elif found.refused is not None:
            self.found.notes.append(f"{here}: {found.refused}")
        return found.markers

    def comment(self, key: ThreadKey, comment: ThreadComment, place: str | _InThread) -> None:
        """One comment, read where `place` says."""
        found = self.found
        actor = comment.author
        if actor is not None and comment.author_association:
            found.associations.setdefault(actor.login.lower(), comment.author_association)
        comment_id = comment.database_id
        here = where(*key, comment_id)
        if is_assistant(actor, self.assistant):
            findings, bad = findings_in(comment.body, self._counted(comment.body, FINDING_MARKER, here))
            found.findings.setdefault(key, []).extend(findings)
            if bad:
                found.notes.append(f"{here}: {bad} finding marker(s) do not parse")
            if comment_id is not None and comment_id not in self.recorded and place == _CONVERSATION:
                self._proposal(key, comment)
            return
        if comment_id is None or comment_id in self.recorded:
            return
        commands = learning_commands(comment.body, self.command_word)
        if not commands:
            return
        if not is_person(actor, self.assistant):
            found.notes.append(f"{here}: commands ignored, the author is not a person")
            return
        assert actor is not None
        for command in commands:
            usable = self._resolved(command, place)
            if isinstance(usable, CommandProblem):
                found.notes.append(f"{here}: `{usable.verb}` not recorded: {usable.reason}")
            elif not isinstance(usable, NotDuplicate):
                found.commands.append(
                    CommandFound(key, comment_id, actor.login, usable, comment.id, comment.viewer_reactions)
                )

    @staticmethod
    def _resolved(
        command: LearningCommand | CommandProblem, place: str | _InThread
    ) -> LearningCommand | CommandProblem:
        """An `ignore-rule` without fingerprint takes its review thread's finding's, else a problem."""
        if not isinstance(command, IgnoreRule) or command.fingerprint is not None:
            return command
        if isinstance(place, _InThread) and place.finding is not None:
            return IgnoreRule(fingerprint=place.finding.fingerprint)
        return CommandProblem(
            "ignore-rule",
            "no fingerprint, and not a reply in the review thread of a finding of the assistant",
        )

    def _proposal(self, key: ThreadKey, comment: ThreadComment) -> None:
        comment_id = comment.database_id
        assert comment_id is not None
        if not self._counted(comment.body, PROPOSAL, where(*key, comment_id)):
            return
        try:
            proposal = parse_proposal(comment.body)
        except ProposalError as error:
            self.found.notes.append(f"{where(*key, comment_id)}: {error}; ignored")
            return
        if proposal is not None:
            self.found.proposals.append(ProposalFound(key, comment_id, comment.id))


@dataclass(frozen=True)
class Candidate:
    """A learning to record: a note (text, paths, category) or the suppression of a finding."""

    source: Source
    text: str = ""
    paths: tuple[str, ...] = ()
    category: str | None = None
    finding: Finding | None = None


def _source(thread: ThreadKey, comment: int, accepted_by: str) -> Source | None:
    kind, number = thread
    try:
        if kind == "issue":
            return Source(issue=number, comment=comment, accepted_by=accepted_by)
        return Source(pull_request=number, comment=comment, accepted_by=accepted_by)
    except ValidationError:
        return None


def _level(login: str, permissions: Mapping[str, str]) -> str | None:
    return permissions.get(normalize_login(login))


def decide(
    found: Found,
    reactors: Mapping[str, Reactors],
    permissions: Mapping[str, str],
    assistant: Identity | None = None,
) -> tuple[list[Candidate], list[str], list[ProposalFound]]:
    """The candidates to record, in the order found, notes on what was left out, and the proposals
    still waiting for a pusher's 👍 (or for its reactions to be read).

    `permissions` maps normalized logins to GitHub's level; a login missing from it could not be
    read, and counts as no pusher. With `assistant`, a proposal's marker in the body read again
    must still count by assistant.markers.counted (a shared account's: sealed).
    """
    candidates: list[Candidate] = []
    notes: list[str] = []
    waiting: list[ProposalFound] = []
    pushers = {login for login, level in permissions.items() if may_push(level)}
    for item in found.commands:
        verb = "remember" if isinstance(item.command, Remember) else "ignore-rule"
        here = where(*item.thread, item.comment)
        level = _level(item.author, permissions)
        if level is None:
            notes.append(f"{here}: `{verb}` by @{item.author} not recorded: permission could not be read")
            continue
        if not may_push(level):
            notes.append(f"{here}: `{verb}` by @{item.author} ignored: {level} permission, not a pusher")
            continue
        source = _source(item.thread, item.comment, item.author)
        if source is None:
            notes.append(f"{here}: `{verb}` not recorded: the source cannot be written")
            continue
        if isinstance(item.command, Remember):
            candidates.append(Candidate(source=source, text=item.command.text, paths=item.command.paths))
            continue
        fingerprint = item.command.fingerprint
        matching = [f for f in found.findings.get(item.thread, []) if f.fingerprint == fingerprint]
        if not matching:
            notes.append(
                f"{here}: `ignore-rule {fingerprint}` not recorded: no finding of the assistant "
                f"on {where(*item.thread)} has that fingerprint"
            )
            continue
        candidates.append(Candidate(source=source, finding=matching[0]))
    for proposal in found.proposals:
        here = where(*proposal.thread, proposal.comment)
        seen = reactors.get(proposal.node_id)
        if seen is None:
            notes.append(f"{here}: proposal not recorded: its reactions could not be read")
            waiting.append(proposal)
            continue
        # Judged by the body and last edit read with the reactions, not by the scan's older copy,
        # its marker counted again by the one rule (a shared account's, sealed).
        if assistant is not None and not counted(seen.body, PROPOSAL, proposal.thread[1], assistant).markers:
            notes.append(f"{here}: proposal marker no longer counts since the scan; ignored")
            continue
        try:
            current = parse_proposal(seen.body)
        except ProposalError as error:
            notes.append(f"{here}: {error}; ignored")
            continue
        if current is None:
            notes.append(f"{here}: proposal marker gone since the scan; ignored")
            continue
        decided = verdict(seen.thumbs_up, seen.thumbs_down, pushers, seen.edited_at)
        if decided.outcome == "rejected":
            notes.append(f"{here}: proposal rejected by @{decided.by} (👎)")
            continue
        if decided.outcome == "edited":
            notes.append(
                f"{here}: proposal edited after the 👍 of @{decided.by}; it waits for a new 👍 from a pusher"
            )
            waiting.append(proposal)
            continue
        if decided.outcome == "pending" or decided.by is None:
            notes.append(f"{here}: proposal waits for a 👍 from a pusher")
            waiting.append(proposal)
            continue
        source = _source(proposal.thread, proposal.comment, decided.by)
        if source is None:
            notes.append(f"{here}: proposal not recorded: the source cannot be written")
            continue
        candidates.append(
            Candidate(source=source, text=current.text, paths=current.paths, category=current.category)
        )
    return candidates, notes, waiting
