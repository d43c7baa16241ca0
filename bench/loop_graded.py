"""`python -m bench --loop`: does the measure grade a model? Four stand-ins live the same weeks.

The loop's repository (bench/loop_world.py) over 16 weeks or more, at a quiet and a busy arrival
rate. Each new issue gets the product's own context as a read just before its analysis would give
it (the window of the `max_analyzed` most recently active analysed issues, their corrections by the
rules, corrections.md rendered nearest first as `corrections read` renders it); a stand-in
model (bench/stand_ins.py: blind, half, following, all) answers from that prompt; its analysis
carries its receipt (the issues whose lines were in corrections.md); the scripted maintainer corrects
it an hour later. Then the product's own measure (corrections/quality/repeats.py) counts, per week
of the analysis, the corrections, the recurrences given and not given, and the precision of the
labels proposed.

In process, on plain models: the live loop (bench/loop.py) proves that the example workflow, the
emulator and the reader close the loop; this one runs the four stand-ins through enough weeks for
the lines to leave the window, in seconds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from bench.loop_world import LABELS_MD, MAINTAINER, NOT_DUPLICATE, OWNER, Arrival, arrivals, fix
from bench.stand_ins import answer
from corrections.quality.backtest_second_look import look_in_context
from corrections.quality.repeats import outcome_repeats
from corrections.read.analysed import AnalysedIssue
from corrections.read.horizon import past_window
from corrections.read.issue_read import IssueRead
from corrections.read.outcome import ReadOutcome
from corrections.render.files import render_corrections_md
from corrections.render.nearest import ordered
from corrections.rules.analysis_marker import LeftOut, Receipt, analysis_marker
from corrections.rules.issue import correct
from corrections.rules.models import Actor, Comment, Event, Issue, IssueCorrection, LabelChange, Permission
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import parse_vocabulary

STAND_INS = ("blind", "half", "following", "all")
# Issues a week: the quiet rate (the window of 30 holds five weeks) and the busy one (less than one).
RATES = {"quiet": 6, "busy": 36}
WEEKS = 16
WINDOW = 30
BOT = Actor(login="triage-assistant", typename="Bot")
PERSON = Actor(login=MAINTAINER)
SETTINGS = RuleSettings(vocabulary=parse_vocabulary(LABELS_MD))
PERMISSIONS = {MAINTAINER: Permission.ADMIN}


@dataclass
class Repository:
    """The issues analysed so far, each with its read and its correction (final once corrected)."""

    reads: list[IssueRead]
    corrections: dict[int, IssueCorrection]

    def outcome(self, window: int, horizon: int = 0) -> ReadOutcome:
        """What a read now gives: the `window` most recently active analysed issues, newest first,
        and past a full window the corrected ones of the horizon up to `horizon` first analyses in
        all (corrections/read/horizon.py; every issue here is analysed, so the window's scan page
        holds 100 and the horizon's page the next 100). `horizon` 0: none, as before the horizon."""
        everyone = sorted(self.reads, key=lambda r: r.issue.updated_at, reverse=True)
        newest = everyone[:window]
        by_number = {r.issue.number: r for r in everyone}
        beyond = past_window(
            [r.issue.number for r in everyone], by_number, [r.issue.number for r in newest], window, horizon
        )
        carried = [by_number[n] for n in beyond if self.corrections[n].is_corrected]
        return ReadOutcome(
            repository=f"{OWNER}/loop",
            settings=SETTINGS,
            window=tuple(newest),
            corrections=tuple(self.corrections[r.issue.number] for r in newest),
            horizon=tuple(carried),
            carried=tuple(self.corrections[r.issue.number] for r in carried),
            scan_exhausted=True,
            permissions=PERMISSIONS,
        )


def context_for(repository: Repository, arrival: Arrival, window: int, horizon: int = 0) -> ReadOutcome:
    """The read just before the new issue's analysis, nearest to it first."""
    return replace(
        repository.outcome(window, horizon),
        analysed=AnalysedIssue(number=arrival.number, title=arrival.title, body=arrival.body),
    )


def prompt_for(
    repository: Repository, arrival: Arrival, window: int, horizon: int = 0
) -> tuple[str, Receipt]:
    """What the stand-ins read of the new issue's prompt, and the receipt its marker carries."""
    return prompt_of(context_for(repository, arrival, window, horizon), arrival)


def prompt_of(past: ReadOutcome, arrival: Arrival) -> tuple[str, Receipt]:
    """The prompt from the read `past`: corrections.md (rendered as `corrections read` renders it,
    nearest first: the prompt always holds it whole) and the new issue as a JSON line; the
    excerpts that `corrections prompt` adds within its budget are left out, as no stand-in reads
    them (counting their tokens would be most of the loop's time).
    """
    receipt = Receipt(corrections=tuple(c.number for c in ordered(past)))
    issue = {"number": arrival.number, "title": arrival.title, "body": arrival.body}
    return render_corrections_md(past) + "\n" + json.dumps(issue) + "\n", receipt


def analysed(
    arrival: Arrival,
    labels: Sequence[str],
    duplicate: int | None,
    receipt: Receipt,
    left_out: Sequence[LeftOut] = (),
) -> Issue:
    """The issue after its analysis (marker, labels applied) and the maintainer's correction."""
    at = arrival.at + timedelta(minutes=3)
    marker = analysis_marker(labels, duplicate, context=receipt, left_out=left_out)
    events: list[Event] = [
        Comment(node_id=f"A{arrival.number}", database_id=arrival.number, at=at, author=BOT, body=marker)
    ]
    events += [
        LabelChange(kind="labeled", at=at + timedelta(seconds=10 + i), actor=BOT, label=name)
        for i, name in enumerate(labels)
    ]
    done = fix(labels, duplicate, arrival)
    later = at + timedelta(hours=1)
    events += [
        LabelChange(kind="unlabeled", at=later + timedelta(seconds=i), actor=PERSON, label=name)
        for i, name in enumerate(done.remove)
    ]
    events += [
        LabelChange(kind="labeled", at=later + timedelta(seconds=30 + i), actor=PERSON, label=name)
        for i, name in enumerate(done.add)
    ]
    if done.object_to_duplicate:
        events.append(
            Comment(
                node_id=f"O{arrival.number}",
                database_id=10_000_000 + arrival.number,
                at=later + timedelta(minutes=1),
                author=PERSON,
                body=NOT_DUPLICATE,
            )
        )
    return Issue(
        number=arrival.number,
        title=arrival.title,
        body=arrival.body,
        author=Actor(login=arrival.author),
        created_at=arrival.at,
        updated_at=max(event.at for event in events),
        events=tuple(events),
    )


@dataclass(frozen=True)
class Week:
    """One week of one stand-in."""

    analyses: int = 0
    corrections: int = 0
    given: int = 0
    not_given: int = 0
    proposed: int = 0
    kept: int = 0
    objected: int = 0  # duplicate notices maintainers objected to
    left_out: int = 0  # what the second look left out of the stand-in's answers

    def document(self) -> dict[str, Any]:
        return {
            "analyses": self.analyses,
            "corrections": self.corrections,
            "recurrences_given": self.given,
            "recurrences_not_given": self.not_given,
            "precision": round(self.kept / self.proposed, 4) if self.proposed else None,
            "objected_duplicates": self.objected,
            "second_look": self.left_out,
        }


def lived(
    model: str, found: Sequence[Arrival], window: int = WINDOW, horizon: int = 0, *, second_look: bool = False
) -> tuple[ReadOutcome, dict[int, tuple[int, int]]]:
    """Every arrival answered by `model` from its context (after the second look of `corrections
    answer` when `second_look`, held against that context) and corrected: the outcome of a read
    of them all, and per issue (labels proposed, of them right). `horizon`: the read's horizon
    past the window (0: none)."""
    repository = Repository([], {})
    proposed: dict[int, tuple[int, int]] = {}  # number -> (labels proposed, of them kept)
    for arrival in found:
        past = context_for(repository, arrival, window, horizon)
        prompt, receipt = prompt_of(past, arrival)
        said = json.loads(answer(model, prompt))
        labels, duplicate = sorted(set(said["labels"])), said["duplicate_of"]
        left_out: tuple[LeftOut, ...] = ()
        if second_look:
            looked = look_in_context(labels, duplicate, past, arrival.number)
            labels, duplicate, left_out = list(looked.labels), looked.duplicate_of, looked.left_out
        issue = analysed(arrival, labels, duplicate, receipt, left_out)
        read = IssueRead.of(issue, None, 100, SETTINGS)
        assert read.first is not None
        repository.reads.append(read)
        repository.corrections[arrival.number] = correct(issue, read.first, [], SETTINGS, PERMISSIONS)
        proposed[arrival.number] = (len(labels), len(set(labels) & set(arrival.truth)))
    everything = ReadOutcome(
        repository=f"{OWNER}/loop",
        settings=SETTINGS,
        window=tuple(sorted(repository.reads, key=lambda r: r.issue.updated_at, reverse=True)),
        corrections=tuple(repository.corrections.values()),
        scan_exhausted=True,
        permissions=PERMISSIONS,
    )
    return everything, proposed


def live(
    model: str, found: Sequence[Arrival], window: int = WINDOW, horizon: int = 0, *, second_look: bool = False
) -> list[Week]:
    """One stand-in's weeks: every arrival answered from its context and corrected; then counted."""
    everything, proposed = lived(model, found, window, horizon, second_look=second_look)
    objected = {c.number for c in everything.corrections if c.objection is not None}
    weeks = [Week() for _ in range(max(a.week for a in found))]
    week_of = {a.number: a.week for a in found}
    for item in outcome_repeats(everything, SETTINGS, window=window, read_with=len(found)):
        index = week_of[item.number] - 1
        was, offered, kept = weeks[index], *proposed[item.number]
        weeks[index] = Week(
            analyses=was.analyses + 1,
            corrections=was.corrections + len(item.corrections),
            given=was.given + len(item.given),
            not_given=was.not_given + len(item.not_given),
            proposed=was.proposed + offered,
            kept=was.kept + kept,
            objected=was.objected + (item.number in objected),
            left_out=was.left_out + len(item.left_out),
        )
    return weeks


def run_all(
    weeks: int = WEEKS,
    per_week: int = RATES["quiet"],
    seed: int = 7,
    models: Sequence[str] = STAND_INS,
    *,
    second_look: bool = False,
) -> dict[str, list[Week]]:
    """Every stand-in over the same arrivals (the answers through the second look when `second_look`)."""
    found = arrivals(weeks, per_week, seed)
    return {model: live(model, found, second_look=second_look) for model in models}


def per_100(series: Sequence[Week], key: str) -> float:
    """A figure summed over the weeks, per 100 analyses."""
    analyses = sum(week.analyses for week in series)
    total = sum(getattr(week, key) for week in series)
    return round(100 * total / analyses, 2) if analyses else 0.0


def summary(series: Sequence[Week]) -> dict[str, Any]:
    """A stand-in's whole run: its sums, per 100 analyses, and its precision."""
    proposed = sum(w.proposed for w in series)
    return {
        "analyses": sum(w.analyses for w in series),
        "corrections_per_100": per_100(series, "corrections"),
        "recurrences_given_per_100": per_100(series, "given"),
        "recurrences_not_given_per_100": per_100(series, "not_given"),
        "recurrences_per_100": round(per_100(series, "given") + per_100(series, "not_given"), 2),
        "precision": round(sum(w.kept for w in series) / proposed, 4) if proposed else None,
        "objected_duplicates": sum(w.objected for w in series),
        "second_look": sum(w.left_out for w in series),
    }


def figures(series: Mapping[str, Sequence[Week]]) -> dict[str, Any]:
    """`--loop --json` for one rate: per week and per stand-in, then a summary per stand-in."""
    count = len(next(iter(series.values())))
    return {
        "weeks": [
            {"week": index + 1, **{model: weeks[index].document() for model, weeks in series.items()}}
            for index in range(count)
        ],
        "summary": {model: summary(weeks) for model, weeks in series.items()},
    }


def goals(found: Mapping[str, Any]) -> dict[str, bool]:
    """What a measure that grades must show: the blind one's recurrences given, the following
    one's (after the lines left the window) not given, the half-following one strictly between."""
    total = found["summary"]
    weeks = found["weeks"]
    return {
        "blind: recurrences given, none not given": all(
            w["blind"]["recurrences_not_given"] == 0 for w in weeks
        )
        and total["blind"]["recurrences_given_per_100"] > 0,
        "following: recurrences only not given": all(w["following"]["recurrences_given"] == 0 for w in weeks),
        "half strictly between blind and following (recurrences per 100 analyses)": total["following"][
            "recurrences_per_100"
        ]
        < total["half"]["recurrences_per_100"]
        < total["blind"]["recurrences_per_100"],
    }


LOOKED = ("blind", "following")  # the stand-ins the second look is measured with


def second_look_goals(off: Mapping[str, Any], on: Mapping[str, Any]) -> dict[str, bool]:
    """What the second look must do in the loop (the same arrivals, `off` and `on`): with the
    blind stand-in, fewer objected duplicate notices and fewer recurrences given; with the
    following one, no figure worse."""
    before, after = off["summary"], on["summary"]
    blind, following = (before["blind"], after["blind"]), (before["following"], after["following"])
    return {
        "second look: blind, fewer objected duplicate notices": blind[1]["objected_duplicates"]
        < blind[0]["objected_duplicates"],
        "second look: blind, fewer recurrences given": blind[1]["recurrences_given_per_100"]
        < blind[0]["recurrences_given_per_100"],
        "second look: following, no figure worse": following[1]["corrections_per_100"]
        <= following[0]["corrections_per_100"]
        and following[1]["recurrences_per_100"] <= following[0]["recurrences_per_100"]
        and following[1]["objected_duplicates"] <= following[0]["objected_duplicates"]
        and (following[1]["precision"] or 0) >= (following[0]["precision"] or 0),
    }
