"""A crowd of strangers cannot hide a maintainer's 👎 (docs/security.md, "Volume"), end to end.

At most 30 people's permissions are looked up through REST in a run (a workflow token cannot read
GraphQL's collaborator list). They were asked alphabetically: 30 strangers named `aa00`…`aa29`
giving 👎 took every look-up and mara's 👎 was "not counted". Now the people who triaged an
issue read (labelled, closed, marked: what GitHub lets triagers do) are asked first, whatever
their name, and the strangers fill the last places.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.emulation import Emulators
from tests.reliability.test_trust import at, corrections_of, first_analysis, issue, thumbs_down, world


def _triaged(number: int, who: str) -> dict[str, Any]:
    """Issue `number`, never analysed, that `who` labelled: a triager's act, seen in the scan."""
    return issue(number, [{"type": "labeled", "actor": who, "label": "question", "at": at(3)}])


def _commented(number: int, who: str) -> dict[str, Any]:
    """Issue `number`, never analysed, where `who` commented (GitHub: authorAssociation COLLABORATOR)."""
    said = {"type": "comment", "id": 2_400_007_000 + number, "author": who, "at": at(3), "body": "Seen."}
    return issue(number, [said])


@pytest.mark.parametrize(
    ("crowd", "maintainer", "elsewhere"),
    [
        ([f"aa{k:02d}" for k in range(30)], "mara", _triaged),
        ([f"aa{k:02d}" for k in range(30)], "theo", _commented),
        ([f"s{k:03d}" for k in range(150)], "wren", _triaged),
    ],
    ids=["30 strangers aa00-aa29, a triager", "30 strangers aa00-aa29, a collaborator", "a brigade of 150"],
)
def test_a_crowd_of_strangers_cannot_hide_a_maintainers_thumbs_down(
    crowd: list[str], maintainer: str, elsewhere: Any, read_cli: Any, tmp_path: Path, emulate: Emulators
) -> None:
    reactions = thumbs_down(*crowd, maintainer)
    issues = [issue(1, [first_analysis(1, ["bug"], reactions)]), elsewhere(2, maintainer)]
    server = emulate(world(issues, collaborators_via_graphql="forbidden"))
    run = read_cli(server.url, tmp_path, repo="octo/trust")
    assert run.status == 0
    # Before: 0 (the crowd took the 30 look-ups; the maintainer's permission "could not be read").
    assert corrections_of(run)[1]["thumbs_down"] == 1
    note = run.json()["note"]
    assert note is not None and "their 👎 and comments not counted" in note  # the rest named
