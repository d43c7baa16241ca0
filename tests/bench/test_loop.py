"""The loop, small: one issue live through examples/first-analysis.yml on the emulator (the
example posts an analysis with its receipt that the reader reads, and the maintainer's correction
is counted); then the four stand-ins graded over 16 weeks in process (bench/loop_graded.py), the
full run's quiet rate. The busy rate and two live weeks of both stand-ins, in which the second
week's analyses are given the first week's corrections, run in the bench (`python -m bench --loop`):
a live job is several processes, seconds each.

The example's account and the reader's assistant come from the example itself: when they differ
the loop cannot close, and these tests say so (LoopBroken), as they would have on the example
that posted as github-actions while the reader looked for triage-assistant.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from assistant.config import Config, with_values
from bench import loop_graded
from bench.loop import (
    ACTIONS_LOGIN,
    ACTIONS_TOKEN,
    EXAMPLE,
    LoopBroken,
    example_accounts,
    job_steps,
    live,
    loop_world,
    run_both,
)
from bench.loop_world import arrivals

SETS_LOGIN = "assistant-login:" in EXAMPLE.read_text(encoding="utf-8")


def _example_with(tmp_path: Path, login: str | None) -> Path:
    """The example with the reader step's `assistant-login` input set to `login` (or taken out)."""
    workflow = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    (job,) = workflow["jobs"].values()
    reader = next(
        step
        for step in job["steps"]
        if str(step.get("uses", "")).split("@")[0].endswith("/correction-reader")
    )
    reader.setdefault("with", {}).pop("assistant-login", None)
    if login is not None:
        reader["with"]["assistant-login"] = login
    path = tmp_path / "first-analysis.yml"
    path.write_text(yaml.safe_dump(workflow, sort_keys=False), encoding="utf-8")
    return path


def test_the_accounts_are_read_from_the_example(tmp_path: Path) -> None:
    steps = job_steps(yaml.safe_load(_example_with(tmp_path, "someone-else").read_text()))
    accounts = example_accounts(steps, Config())
    assert (accounts.posts_as, accounts.reader) == (ACTIONS_LOGIN, "someone-else")
    with pytest.raises(
        LoopBroken, match=r"posts its analyses as github-actions .* reader looks for analyses by someone-else"
    ):
        accounts.check()
    # Without the input and a configuration naming none, the reader looks for its own token's
    # account (zero configuration): github.token's, the one that posts.
    steps = job_steps(yaml.safe_load(_example_with(tmp_path, None).read_text()))
    assert example_accounts(steps, Config()).reader == ACTIONS_LOGIN
    named = with_values(Config(), "test", "assistant", {"login": "triage-assistant"})
    assert example_accounts(steps, named).reader == "triage-assistant"


def test_a_mismatch_stops_the_loop(tmp_path: Path) -> None:
    with pytest.raises(LoopBroken, match="reader looks for analyses by triage-assistant"):
        run_both(weeks=1, per_week=2, seed=7, login="triage-assistant", example=_example_with(tmp_path, None))


def test_the_example_as_it_is_closes_the_loop(tmp_path: Path) -> None:
    """Zero configuration, with the example's own steps: the example sets no `assistant-login`,
    the repository has no configuration, and github.token is the emulator's default token, the Bot
    `github-actions` (a world that names no viewer, no `users` entry, no `tokens` entry for it), as
    a workflow's GITHUB_TOKEN is on GitHub (`viewer` `github-actions[bot]`). The reader takes that
    account, the one that posts, shared by every workflow: its analyses count by their sealed
    markers (the example's ASSISTANT_MARKER_KEY). Before (an unlisted `github-actions` a User):
    #2's job read no earlier analysis, LoopBroken."""
    assert not SETS_LOGIN
    world = loop_world([])
    assert "viewer" not in world and ACTIONS_LOGIN not in world["users"]
    assert ACTIONS_TOKEN not in world["tokens"]
    crash, slow = arrivals(1, 2, 7)  # #1: a crash, labelled right; #2: a slow sync, labelled wrong
    assert "Crash" in crash.title and "Slow" in slow.title
    (week,) = live("following", [crash, slow], EXAMPLE, tmp_path)
    # #2's job read #1's analysis (else LoopBroken); both analyses carry their receipt, and the
    # maintainer's two decisions on #2 (performance removed, bug added) are counted.
    assert week == {"corrections": 2, "recurrences_given": 0, "recurrences_not_given": 0, "receipts": 2}


def test_the_measure_grades_four_stand_ins_over_sixteen_weeks() -> None:
    found = loop_graded.figures(loop_graded.run_all(weeks=16, per_week=loop_graded.RATES["quiet"], seed=7))
    weeks = found["weeks"]
    assert [w["week"] for w in weeks] == list(range(1, 17))

    def series(model: str, key: str) -> list[int]:
        return [w[model][key] for w in weeks]

    # The following stand-in stops making its mistakes, until their lines leave the window of 30
    # (five weeks of six): in weeks 7 and 13 they come back, not given. Never given.
    not_given = series("following", "recurrences_not_given")
    assert not_given[6] == not_given[12] == 5
    assert sum(not_given) == 10 and sum(series("following", "recurrences_given")) == 0
    # The blind one's come back every week from the second on, each given.
    assert all(n > 0 for n in series("blind", "recurrences_given")[1:])
    assert sum(series("blind", "recurrences_not_given")) == 0
    total = found["summary"]
    recurring = {model: total[model]["recurrences_per_100"] for model in loop_graded.STAND_INS}
    assert recurring["following"] < recurring["half"] < recurring["blind"] < recurring["all"]
    assert total["following"]["precision"] > total["half"]["precision"] > total["blind"]["precision"]
    assert all(loop_graded.goals(found).values())


def test_the_second_look_lowers_the_blind_ones_objections_and_recurrences_given_and_not_the_following() -> (
    None
):
    """Issue 32, small: six quiet weeks, the same arrivals without and with `corrections answer`'s
    second look held against each analysis's context (the full 16 weeks at both rates: the bench)."""
    off = loop_graded.figures(loop_graded.run_all(weeks=6, seed=7, models=loop_graded.LOOKED))
    on = loop_graded.figures(
        loop_graded.run_all(weeks=6, seed=7, models=loop_graded.LOOKED, second_look=True)
    )
    assert all(loop_graded.second_look_goals(off, on).values())
    blind = (off["summary"]["blind"], on["summary"]["blind"])
    # The blind one names the first flaky issue on every later flaky one: objected once, then left out.
    assert blind[0]["objected_duplicates"] == 5 and blind[1]["objected_duplicates"] == 1
    # What it left out is in the markers, and quality reads it back from there.
    assert blind[1]["second_look"] > 0 and off["summary"]["blind"]["second_look"] == 0
    assert on["summary"]["following"] == off["summary"]["following"]
