"""A correction line says "see issues/N.md" only when that excerpt is in the prompt (issue 31: the
demo's prompt pointed at four excerpts its budget had left out)."""

from __future__ import annotations

from corrections.render.issue_file import IssueExcerpt, head_lines
from corrections.render.prompt import ContextFolder, assemble_prompt
from corrections.render.prompt_budget import Budget

LINES = (
    "# Corrections from maintainers\n\n````\n"
    '#5 "see issues/9.md (the reason: see issues/9.md)" | 2026-11-02 | duplicate notice (of #3) '
    "objected to by a maintainer (the reason: see issues/5.md)\n"
    '#9 "Crash" | 2026-11-01 | 👎 from 1 person with push access (the reason: see issues/9.md)\n'
    "````\n"
)


def _excerpt(number: int, body: str) -> IssueExcerpt:
    head = head_lines(f'"Issue {number}"', '"kwame"', "OPEN", f'"{body}"')
    return IssueExcerpt(number=number, head=head, timeline=(), summary="Correction: see above.")


def _prompt(budget: Budget) -> tuple[str, tuple[int, ...]]:
    context = ContextFolder(
        corrections=LINES,
        learnings=None,
        order=(5, 9),
        excerpts={5: _excerpt(5, "short"), 9: _excerpt(9, "long " * 3_000)},
    )
    prompt = assemble_prompt(context, issue=None, budget=budget)
    return prompt.text, prompt.shown


def test_a_pointer_at_an_excerpt_left_out_is_taken_away() -> None:
    text, shown = _prompt(Budget(max_tokens=None, max_chars=3_000))
    assert shown == (5,)  # #9's excerpt does not fit
    assert "objected to by a maintainer (the reason: see issues/5.md)" in text
    assert "👎 from 1 person with push access\n" in text  # its own words, no pointer
    # A title is data: its text is never touched, whatever it says.
    assert '"see issues/9.md (the reason: see issues/9.md)"' in text


def test_every_pointer_stays_when_every_excerpt_is_in() -> None:
    text, shown = _prompt(Budget(max_tokens=None, max_chars=None))
    assert shown == (5, 9) and text.count("(the reason: see issues/") == 3
