"""How many new issues of a repository the assistant never analysed get a relevant example.

`python -m bench.kept_examples_study`: serves bench/labelled_world.py (40 labels, 300 issues a
maintainer labelled, 40 held-out new issues) on the emulator, reads the context of each held-out
issue as its first analysis would (`--issue N`, nothing of the assistant's history), and counts
the issues whose examples.md holds an issue of the same family (its `area-*` label): a relevant
example. Also the examples given and the GraphQL points of a read (the examples add none).
"""

from __future__ import annotations

import asyncio
import statistics
import sys

from bench.labelled_world import LabelledSpec, generate
from corrections.read.analysed import AnalysedIssue
from corrections.read.entry import read
from corrections.read.options import build_options
from corrections.render.kept_examples import chosen_examples
from emulator import serve_in_thread

LABELS_MD = "\n".join(
    [
        "# Labels",
        "",
        *(f"- `{label['name']}`: {label['description']}" for label in generate().world["labels"]),
    ]
)


def study(spec: LabelledSpec | None = None) -> dict[str, float]:
    """The share of held-out issues with a relevant example, the examples given, points a read."""
    labelled = generate(spec or LabelledSpec())
    found = {**labelled.world, "files": {"main": {".github/assistant/labels.md": LABELS_MD + "\n"}}}
    relevant, given, points = 0, [], []
    with serve_in_thread(found) as server:
        for number in labelled.held_out:
            options = build_options(
                repo="octo/newcomer",
                config_path=None,
                api_url=server.url,
                analysed=AnalysedIssue(number=number),
            )
            outcome = asyncio.run(read(options, "study-token", lambda _line: None))
            examples = chosen_examples(outcome)
            given.append(len(examples))
            points.append(outcome.usage.points)
            area = f"area-{labelled.family[number]}"
            relevant += any(area in example.labels for example in examples)
    return {
        "held_out": len(labelled.held_out),
        "with_relevant_example": relevant,
        "share": relevant / len(labelled.held_out),
        "mean_examples": statistics.mean(given),
        "mean_points": statistics.mean(points),
    }


def main() -> int:
    """Print the study's figures."""
    figures = study()
    print(
        f"{figures['with_relevant_example']:.0f} of {figures['held_out']:.0f} held-out issues "
        f"({figures['share']:.0%}) get a relevant example; {figures['mean_examples']:.1f} examples "
        f"given on average; {figures['mean_points']:.1f} GraphQL points a read"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
