"""The sync's threshold measured (bench/proposals_threshold.py), small: on one wording world with few
corrections a kind, the default threshold proposes every recurring kind and no decision that two
one-offs happened to share; a threshold of 1 proposes the one-offs too."""

from __future__ import annotations

from bench.proposals_threshold import wording
from corrections.quality.recurring import MINIMUM


def test_the_default_threshold_proposes_every_habit_and_no_chance_decision() -> None:
    found = wording(seeds=(31,), shape="few a kind")
    chosen = found[str(MINIMUM)]
    assert chosen["kinds"] == found["kinds_per_world"] == 7
    assert chosen["wrong"] == 0
    assert found["1"]["wrong"] > 0  # every one-off proposed: the measure can tell them apart
