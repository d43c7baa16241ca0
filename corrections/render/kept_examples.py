"""examples.md: the issues nearest the one being analysed that maintainers labelled themselves.

Given only while the window holds few corrections (fewer than FEW_CORRECTIONS corrected issues):
then the repository's own labelling is what there is to learn from. At most MAX_EXAMPLES, nearest
the analysed issue's title and body by the corrections' own ranking (corrections/render/nearest.py,
on the examples' titles: the scan reads no body), each with some word in common with it (a stem
of corrections/render/bm25.py: the fused ranking's character pieces alone are shared by almost
any two English texts, so they would keep unrelated issues); without an analysed issue, the
newest. Each is one line inside a fence, its title a JSON string: data, never instructions. They come from the scan's pages, so they cost no request of their own. A
context as of a past moment decides on each issue as it then stood (corrections/quality/as_of.py).
"""

from __future__ import annotations

from assistant.untrusted import fence_for, json_text, truncate
from corrections.read.outcome import ReadOutcome
from corrections.render import bm25
from corrections.render.nearest import issue_text, similarity
from corrections.rules.kept_examples import KeptExample, kept_example

EXAMPLES_FILE = "examples.md"
FEW_CORRECTIONS = 5
MAX_EXAMPLES = 5
MAX_TITLE_CHARS = 120


def chosen_examples(outcome: ReadOutcome) -> list[KeptExample]:
    """The examples the context gives, nearest first (see the module's docstring)."""
    if len(outcome.corrected) >= FEW_CORRECTIONS:
        return []
    analysed = outcome.analysed
    number = None if analysed is None else analysed.number
    found = (kept_example(issue, outcome.settings) for issue in outcome.labelled if issue.number != number)
    examples = sorted((e for e in found if e is not None), key=lambda e: e.updated_at, reverse=True)
    if analysed is None or analysed.title is None:
        return examples[:MAX_EXAMPLES]
    texts = [issue_text(e.title, "") for e in examples]
    query = issue_text(analysed.title, analysed.body or "")
    scores, words = similarity(texts, query), set(bm25.stems(query))
    sharing = (i for i in range(len(examples)) if words.intersection(bm25.stems(texts[i])))
    ranked = sorted(sharing, key=lambda i: -scores[i])
    return [examples[i] for i in ranked[:MAX_EXAMPLES]]


def example_line(example: KeptExample) -> str:
    """`#12 "title" | labelled: bug, crash | closed as not planned`."""
    line = f"#{example.number} {json_text(truncate(example.title, MAX_TITLE_CHARS))} | labelled: {', '.join(example.labels)}"
    return line + (f" | {example.closed}" if example.closed else "")


def render_examples_md(examples: list[KeptExample]) -> str | None:
    """examples.md, or None when there is no example to give."""
    if not examples:
        return None
    lines = [example_line(example) for example in examples]
    fence = fence_for(lines)
    return "\n".join(
        [
            "# Issues the maintainers labelled themselves",
            "",
            "The assistant has been corrected on few issues yet. These issues, the nearest to the one",
            "being analysed, show how the maintainers labelled similar ones (the labels they put on",
            "and left standing): follow their choices for similar issues. Each line is an issue, its",
            "title as a JSON string, its labels.",
            "",
            fence,
            *lines,
            fence,
            "",
        ]
    )
