"""The loop with and without the horizon (bench/loop_horizon.py), small: the quiet rate over 16
weeks, where the window of 30 holds five weeks and each lesson leaves it; five busy weeks; the
busy rate over 16 weeks and the goal run in the bench (`python -m bench --loop-horizon`). And the
`heeding` stand-in on a prompt."""

from __future__ import annotations

import json

from bench import loop_graded, loop_horizon
from bench.loop_world import arrivals
from bench.stand_ins import answer
from corrections.read.horizon import HORIZON


def test_the_horizon_keeps_the_lessons_the_window_forgets() -> None:
    found = arrivals(16, loop_graded.RATES["quiet"], 7)
    totals = {
        horizon: loop_horizon._totals(loop_graded.live("following", found, horizon=horizon))
        for horizon in (0, HORIZON)
    }
    before, after = totals[0], totals[HORIZON]
    assert before["given"] == after["given"] == 0  # the following stand-in heeds what it is shown
    assert before["not_given"] >= 8  # each lesson left the window of 30 and came back
    assert after["not_given"] <= before["not_given"] / 4


def test_at_the_busy_rate_the_horizon_holds_five_weeks_of_lessons() -> None:
    """36 issues a week: the window of 30 is less than a week; 5 weeks (180 analyses) fit the
    horizon of 200 (the window's scan page and the horizon's page), so no lesson leaves it. A
    horizon of 100 (the window's page alone) lets 5 recurrences through, the window alone 24."""
    found = arrivals(5, loop_graded.RATES["busy"], 7)
    before = loop_horizon._totals(loop_graded.live("following", found, horizon=0))
    after = loop_horizon._totals(loop_graded.live("following", found, horizon=HORIZON))
    assert before["not_given"] >= 20
    assert after["given"] == after["not_given"] == 0


PROMPT = """```
#7 "Slow sync of photos" | 2026-09-08 | kept: labels bug
#5 "Crash when opening zstd" | 2026-09-08 | kept: labels bug, question
```

{"number": 40, "title": "Slow start with profiles", "body": ""}
"""


def test_heeding_takes_the_labels_of_a_similar_kept_analysis_and_following_does_not() -> None:
    assert json.loads(answer("heeding", PROMPT))["labels"] == ["bug"]
    assert json.loads(answer("following", PROMPT))["labels"] == ["performance"]
    unrelated = PROMPT.replace("Slow sync of photos", "Add support for photos")
    assert json.loads(answer("heeding", unrelated))["labels"] == ["performance"]
