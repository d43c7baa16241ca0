"""The prompt-reach measurement (bench/prompt_reach.py), small: three new issues of the quiet kinds
and a trace through the action's read and `corrections prompt` on the emulator, default
configuration. Each must find the line of its kind among the prompt's first three correction
lines, within 4,500 tokens and 3 points; the full measurement (336 new issues) runs in the bench.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.prompt_reach import MAX_POINTS, MAX_TOKENS, ReachError, correction_lines, first_of_kind, measure
from bench.wording_world import new_issues

PROMPT = """# What the maintainers taught the triage assistant

## Corrections from maintainers

Some words.

````
#12 "Windows paths" | 2026-06-02 | maintainer removed label bug | the same correction on 2 issues, also #3 "x"
#9 "Slow" | 2026-06-01 | maintainer removed label performance
````

## The issue you are analysing: #40
"""


def test_the_lines_are_read_from_the_prompts_corrections_fence() -> None:
    assert [line[:3] for line in correction_lines(PROMPT)] == ["#12", "#9 "]
    kinds = {12: None, 3: "windows", 9: "timeout"}
    assert first_of_kind(PROMPT, [[12, 3], [9]], kinds, "windows") == (2, 1)  # a collapsed line's issue
    assert first_of_kind(PROMPT, [[12, 3], [9]], kinds, "timeout") == (2, 2)
    assert first_of_kind(PROMPT, [[12, 3], [9]], kinds, "docs") == (2, None)


def test_a_prompt_that_does_not_match_corrections_json_is_refused() -> None:
    with pytest.raises(ReachError, match=r"2 correction lines, corrections\.json 1"):
        first_of_kind(PROMPT, [[12]], {}, "docs")
    with pytest.raises(ReachError, match="does not lead with #9"):
        first_of_kind(PROMPT, [[9], [12]], {}, "docs")


def test_quiet_kinds_reach_the_top_three_of_the_prompt_within_the_budget(tmp_path: Path) -> None:
    wanted = {("windows", "de"), ("docs", "zh"), ("timeout", "trace")}
    asked = [new for new in new_issues() if (new.kind, new.wording) in wanted]
    asked = [next(new for new in asked if (new.kind, new.wording) == pair) for pair in sorted(wanted)]
    found = measure(4, asked, tmp_path)
    assert [(r.kind, r.wording) for r in found] == sorted(wanted)
    for reach in found:
        assert reach.rank is not None and reach.rank <= 3, reach
        assert reach.tokens <= MAX_TOKENS, reach
        assert reach.points <= MAX_POINTS, reach
        assert reach.lines >= 7, reach  # the seven kinds' lines at least: the horizon is read
