"""The context as of a past moment, from one read of today's timelines (pure).

What a first analysis at moment T would have been given: the same rules (rules.correct) on the
same answers, with every event at or after T left out. Nothing is read again and nothing is decided
here: the inputs are filtered, then the rules run as in any read.

- An issue created at or after T did not exist; an issue whose first analysis is not before T had
  none yet.
- An issue's state (and GitHub's state reason) is the one its close and reopen events before T
  leave; its activity (the
  window's order, newest first) is its latest event before T, else its creation.
- A 👎 counts only when GitHub says it was given before T (one without a date is left out).
- The learnings as they stood (corrections/quality/learnings_as_of.py): none created at or after
  T, those retired since as still active.
- Permissions, titles and bodies and `labels.md` are as they are now: GitHub keeps no history of
  them that one read could give.

The window as of T is exact when every issue that could rank in it was read: today's read covers
every issue active since `read_back_to`, so the window is exact when it is full and its last
issue's activity before T is not older than that (an issue not read has been inactive since, and
ranks below it). Otherwise a warning says the window may miss older issues.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from corrections.quality.learnings_as_of import learnings_as_of
from corrections.quality.numbers import complete_after
from corrections.read import notes
from corrections.read.horizon import HORIZON
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.read.status import Off
from corrections.rules.issue import correct
from corrections.rules.models import Closed, Issue, IssueCorrection, Reaction, Reopened
from corrections.rules.settings import RuleSettings


def issue_as_of(issue: Issue, moment: datetime) -> Issue | None:
    """The issue as it stood just before `moment`; None when it did not exist yet."""
    if issue.created_at >= moment:
        return None
    events = tuple(event for event in issue.events if event.at < moment)
    # Each close says its own reason, DUPLICATE included (GitHub's ClosedEvent.stateReason).
    state, reason = "OPEN", None
    for event in events:
        if isinstance(event, Closed):
            state = "CLOSED"
            reason = event.state_reason
        elif isinstance(event, Reopened):
            state, reason = "OPEN", "REOPENED"  # as GitHub answers after a reopen
    updated = max([issue.created_at, *(event.at for event in events)])
    return issue.model_copy(
        update={"events": events, "state": state, "state_reason": reason, "updated_at": updated}
    )


def reactions_as_of(reactions: Sequence[Reaction], moment: datetime) -> list[Reaction]:
    """The 👎 given before `moment` (those GitHub gave no date for are left out)."""
    return [reaction for reaction in reactions if reaction.at is not None and reaction.at < moment]


def read_as_of(read: IssueRead, moment: datetime, settings: RuleSettings) -> IssueRead | None:
    """An issue read today as it stood just before `moment`; None when it had no first analysis yet."""
    first = read.first
    if first is None or first.at >= moment:
        return None  # today's first analysis is the earliest: none was before the moment
    past = issue_as_of(read.issue, moment)
    if past is None:
        return None
    events = past.events
    if first.index < len(events) and events[first.index] == read.issue.events[first.index]:
        # The earlier events keep their places: the same first analysis, its markers not parsed again.
        return IssueRead(past, None, read.items_asked, first, read.warnings)
    then = IssueRead.of(past, None, read.items_asked, settings)
    return then if then.first is not None else None


def correct_as_of(
    then: IssueRead, moment: datetime, outcome: ReadOutcome, settings: RuleSettings
) -> IssueCorrection:
    """The rules on an issue as it stood (`read_as_of`), with the 👎 and permissions read today."""
    assert then.first is not None
    reactors = reactions_as_of(outcome.reactions.get(then.first.node_id, []), moment)
    return correct(then.issue, then.first, reactors, settings, outcome.permissions)


def describe(moment: datetime) -> str:
    """The moment as the output names it: ISO 8601, UTC, to the second."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def outcome_as_of(
    outcome: ReadOutcome,
    moment: datetime,
    *,
    max_analyzed: int,
    settings: RuleSettings,
    read_back_to: datetime | None,
) -> ReadOutcome:
    """The outcome a read just before `moment` would have given, from today's `outcome`.

    `read_back_to`: every issue active since then was read today (None: every issue was).
    `max_analyzed` 0: reading turned off, as a read with it would be (no corrections, no learnings).
    """
    if max_analyzed == 0:
        return replace(
            outcome,
            window=(),
            corrections=(),
            horizon=(),
            carried=(),
            learnings=None,
            status=Off(notes.OFF),
            as_of=moment,
            labelled=(),
        )
    past = _past(outcome, settings)
    found = past.window(moment, max(max_analyzed, HORIZON))
    window = tuple(then for _, then in found[:max_analyzed])
    corrections = tuple(past.line(index, then, moment) for index, then in found[:max_analyzed])
    # The horizon past a full window, as the read takes it (corrections/read/horizon.py): its
    # corrected issues, their 👎 not read.
    beyond = [
        (then, past.line(index, then, moment, with_thumbs=False))
        for index, then in (found[max_analyzed:] if len(window) >= max_analyzed else [])
    ]
    beyond = [(then, line) for then, line in beyond if line.is_corrected]
    warnings = list(outcome.warnings)
    if (
        max_analyzed > 0
        and read_back_to is not None
        and (len(window) < max_analyzed or window[-1].issue.updated_at < read_back_to)
    ):
        warnings.append(
            f"the context as of {describe(moment)} may miss older issues: today's read reached back "
            f"to issues active since {describe(read_back_to)}"
        )
    then = past.labelled(moment)  # the kept examples' candidates, as they then stood
    return replace(
        outcome,
        window=window,
        corrections=corrections,
        horizon=tuple(then for then, _ in beyond),
        carried=tuple(line for _, line in beyond),
        learnings=learnings_as_of(outcome.learnings, moment),
        warnings=tuple(warnings),
        as_of=moment,
        labelled=then,
    )


class _Past:
    """One read's analysed issues, indexed for the contexts as of many past moments.

    A month's report asks for the context as of each of its analyses from the same read, so the
    index is built once a read: every event time (and creation time) of the analysed issues,
    oldest first, each with its issue's place in the window; and, per issue, its own event and 👎
    times. What a past moment sees of an issue is the events before it, and those only grow as
    the moment does, so their count names them: an issue as it stood, and its line, are computed
    once for each count and reused by every later moment that sees the same events.
    """

    def __init__(self, outcome: ReadOutcome, settings: RuleSettings) -> None:
        self.outcome = outcome
        self.settings = settings
        window = outcome.window
        pairs = sorted(
            (
                (at, index)
                for index, read in enumerate(window)
                if read.first is not None
                for at in (read.issue.created_at, *(event.at for event in read.issue.events))
            ),
            key=lambda pair: pair[0],
        )
        self._times = [at for at, _ in pairs]
        self._owners = [index for _, index in pairs]
        self._event_times = [sorted(event.at for event in read.issue.events) for read in window]
        self._thumbs_times: dict[str, list[datetime]] = {}
        self._reads: dict[tuple[int, int, bool], IssueRead | None] = {}
        self._lines: dict[tuple[int, int, str, int], IssueCorrection] = {}
        self._unthumbed: dict[tuple[int, int, str, int], IssueCorrection] = {}
        self._labelled_times = [sorted(event.at for event in issue.events) for issue in outcome.labelled]
        self._labelled: dict[tuple[int, int, bool], Issue | None] = {}
        # Every creation and event time of the labelled issues, oldest first, with the issue's place:
        # between two moments only the issues with a time between them can have changed.
        changes = sorted(
            (
                (at, index)
                for index, issue in enumerate(outcome.labelled)
                for at in (issue.created_at, *(event.at for event in issue.events))
            ),
            key=lambda pair: pair[0],
        )
        self._labelled_change_times = [at for at, _ in changes]
        self._labelled_changed = [index for _, index in changes]
        self._labelled_at: int | None = None  # the place in those times of the moment asked last
        self._labelled_then: list[Issue | None] = []  # each labelled issue as it stood then

    def matches(self, outcome: ReadOutcome, settings: RuleSettings) -> bool:
        """Whether this index answers for `outcome` (the same read's answers, by identity)."""
        mine = self.outcome
        return (
            mine.window is outcome.window
            and mine.reactions is outcome.reactions
            and mine.permissions is outcome.permissions
            and mine.labelled is outcome.labelled
            and self.settings is settings
        )

    def window(self, moment: datetime, max_analyzed: int) -> list[tuple[int, IssueRead]]:
        """The `max_analyzed` issues of newest activity before `moment`, as they then stood, newest
        first (ties in today's order), each with its place in today's window.

        An issue's activity then is its latest event (or its creation) before the moment, so
        walking the events backwards from the moment meets each issue first at its activity then.
        The walk stops once `max_analyzed` issues are found and every event left is older than the
        last of them: each moment costs the events of about one window, not the whole read.
        """
        found: list[tuple[int, IssueRead]] = []
        kept: list[datetime] = []  # the `max_analyzed` newest activities found, oldest on top
        seen: set[int] = set()
        for position in range(bisect.bisect_left(self._times, moment) - 1, -1, -1):
            if len(kept) >= max_analyzed and self._times[position] < kept[0]:
                break
            index = self._owners[position]
            if index in seen:
                continue
            seen.add(index)
            then = self.read(index, moment)
            if then is None:
                continue
            found.append((index, then))
            heapq.heappush(kept, then.issue.updated_at)
            if len(kept) > max_analyzed:
                heapq.heappop(kept)
        found.sort(key=lambda pair: pair[0])
        # Newest activity first, as GitHub's scan orders them; ties keep today's order.
        found.sort(key=lambda pair: pair[1].issue.updated_at, reverse=True)
        return found[:max_analyzed]

    def labelled(self, moment: datetime) -> tuple[Issue, ...]:
        """The read's labelled issues (the kept examples' candidates) as they stood just before
        `moment`, each computed once for each set of events it sees; from the moment asked last,
        only the issues with a creation or an event between the two moments are looked at again."""
        place = bisect.bisect_left(self._labelled_change_times, moment)
        if self._labelled_at is None:
            changed: Iterable[int] = range(len(self.outcome.labelled))
            self._labelled_then = [None] * len(self.outcome.labelled)
        else:
            low, high = sorted((self._labelled_at, place))
            changed = set(self._labelled_changed[low:high])
        self._labelled_at = place
        for index in changed:
            issue = self.outcome.labelled[index]
            seen = bisect.bisect_left(self._labelled_times[index], moment)
            key = (index, seen, issue.created_at < moment)
            if key not in self._labelled:
                self._labelled[key] = issue_as_of(issue, moment)
            self._labelled_then[index] = self._labelled[key]
        return tuple(filter(None, self._labelled_then))

    def read(self, index: int, moment: datetime) -> IssueRead | None:
        """`read_as_of` of the window's `index`-th issue, once for each set of events it sees."""
        read = self.outcome.window[index]
        seen = bisect.bisect_left(self._event_times[index], moment)
        key = (index, seen, read.issue.created_at < moment)
        if key not in self._reads:
            self._reads[key] = read_as_of(read, moment, self.settings)
        return self._reads[key]

    def line(
        self, index: int, then: IssueRead, moment: datetime, *, with_thumbs: bool = True
    ) -> IssueCorrection:
        """`correct_as_of` of an issue as it stood, once for each set of events and 👎 it sees;
        `with_thumbs` False: its line with no 👎 (the horizon's, whose 👎 the read does not ask)."""
        assert then.first is not None
        node = then.first.node_id
        if node not in self._thumbs_times:
            given = self.outcome.reactions.get(node, [])
            self._thumbs_times[node] = sorted(r.at for r in given if r.at is not None)
        thumbs = bisect.bisect_left(self._thumbs_times[node], moment)
        key = (index, len(then.issue.events), node, thumbs)
        if key not in self._lines:
            self._lines[key] = correct_as_of(then, moment, self.outcome, self.settings)
        if with_thumbs:
            return self._lines[key]
        if key not in self._unthumbed:
            self._unthumbed[key] = self._lines[key].model_copy(update={"thumbs_down": 0})
        return self._unthumbed[key]


class _LastPast:
    """The index of the read asked about last (a report asks many moments of one read)."""

    def __init__(self) -> None:
        self._past: _Past | None = None

    def of(self, outcome: ReadOutcome, settings: RuleSettings) -> _Past:
        """The index for `outcome`, built anew when another read is asked about."""
        if self._past is None or not self._past.matches(outcome, settings):
            self._past = _Past(outcome, settings)
        return self._past


_past = _LastPast().of


def context_as_of(
    outcome: ReadOutcome, moment: datetime, max_analyzed: int, *, read_with: int
) -> ReadOutcome:
    """`outcome_as_of` for a read of `read_with` issues with a first analysis (the wider read)."""
    return outcome_as_of(
        outcome,
        moment,
        max_analyzed=max_analyzed,
        settings=outcome.settings,
        read_back_to=complete_after(outcome, read_with),
    )
