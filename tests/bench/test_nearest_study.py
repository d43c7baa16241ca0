"""The ranking study (bench/nearest.py) on a small generated world where the nearest line is known.

Ranks only, never times. The families of bench/topic_world.py decide which lines are near,
independently of BM25.
"""

from __future__ import annotations

from bench import wording_study
from bench.nearest import DEMO_TOPICS, queries, read_world, summary
from bench.topic_world import TopicSpec, generate
from bench.wording_study import WINDOWS
from bench.wording_texts import WORDINGS
from bench.wording_world import MAINTAINER, WordingSpec, new_issues
from bench.wording_world import generate as wording_world
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


def test_the_wording_world_is_deterministic_with_quiet_kinds_past_the_default_window() -> None:
    spec = WordingSpec(seed=4)
    first = wording_world(spec)
    assert first == wording_world(spec)
    issues = first.world["issues"]
    newest_30 = {issue["number"] for issue in issues[-30:]}  # one issue an analysis, by creation
    quiet = {n for n, kind in first.kind.items() if kind in {"windows", "docs"}}
    assert quiet and not quiet & newest_30  # older than the 30 most recent analyses
    asked = new_issues()
    assert len(asked) == 112 and {new.wording for new in asked} == set(WORDINGS)


def test_the_wording_study_reads_the_planted_lines_and_the_fusion_finds_most() -> None:
    spec = WordingSpec(seed=4)
    generated = wording_world(spec)
    widest = read_world(generated.world, 100)
    planted = {
        issue["number"]
        for issue in generated.world["issues"]
        if any(i["actor"] == MAINTAINER for i in issue["timeline"] if "actor" in i)
    }
    assert {c.number for c in widest.corrected} == planted
    outcomes = {
        name: widest if size == 100 else read_world(generated.world, size) for name, size in WINDOWS.items()
    }
    result = wording_study.study([(spec, outcomes)], only=("bm25", "fusion"))
    wide = result["windows"]["widest window (100)"]["rankers"]
    default = result["windows"]["default window (30)"]["rankers"]
    assert wide["fusion"]["all"]["recall@3"] >= 0.85 > wide["bm25"]["all"]["recall@3"]
    assert wide["fusion"]["zh"]["recall@3"] > wide["bm25"]["zh"]["recall@3"]
    # The default window holds no line of the quiet kinds; the horizon past it brings them back,
    # their texts ranked as in the widest window: the same lines, the same figures.
    quiet = {n for n in planted if generated.kind[n] in {"windows", "docs"}}
    read_default = outcomes["default window (30)"]
    assert quiet and not quiet & {read.issue.number for read in read_default.window}
    assert quiet <= {read.issue.number for read in read_default.horizon}

    def ranks(found: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
        return {
            ranker: {k: v for k, v in figures.items() if k != "ms_per_ranking"}
            for ranker, figures in found.items()
        }

    assert ranks(default) == ranks(wide)
    assert default["fusion"]["kind:windows"]["recall@5"] == 1.0
