"""The ranking study (bench/nearest.py) on a small generated world where the nearest line is known.

Ranks only, never times. The families of bench/topic_world.py decide which lines are near,
independently of BM25.
"""

from __future__ import annotations

from bench.nearest import DEMO_TOPICS, queries, read_world, summary
from bench.topic_world import TopicSpec, generate
from emulator.worlds import demo_world_path


def test_generation_is_deterministic_and_plants_families() -> None:
    spec = TopicSpec(issues=30, seed=2, families=3)
    first = generate(spec)
    assert first == generate(spec)
    assert set(first.family.values()) <= {"auth", "delete", "docs"}  # the first three by name
    assert first.family.keys() == {issue["number"] for issue in first.world["issues"]}


def test_nearest_first_brings_the_same_subject_up() -> None:
    generated = generate(TopicSpec(issues=60, seed=3, families=6, corrected_share=0.6))
    found = queries(read_world(generated.world, 100), generated.family)
    figures = summary(found)
    assert figures["queries"] >= 15
    newest, nearest = figures["newest_first"], figures["nearest_first"]
    assert nearest["median_rank"] == 1
    assert nearest["mean_rank"] < newest["mean_rank"]
    assert nearest["top_1"] > newest["top_1"]
    # Every query is answered: a line about its subject is somewhere among the lines.
    assert all(1 <= q.nearest_first <= q.lines and 1 <= q.newest_first <= q.lines for q in found)


def test_demo_subjects_are_corrected_issues_of_the_window() -> None:
    outcome = read_world(demo_world_path(), 30)
    corrected = {c.number for c in outcome.corrected}
    assert set(DEMO_TOPICS) == corrected
