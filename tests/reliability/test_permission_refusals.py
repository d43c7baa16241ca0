"""When GitHub refuses permissions through both APIs, the note says what was not counted and why.

On github.com a workflow's GITHUB_TOKEN is refused GraphQL's collaborator list ("You do not have
permission to view repository collaborators.", the emulator's default); REST's permission
endpoint answers it, but a token without push access gets 403 "Must have push access to view
collaborator permission." (PyGithub's recording, tests/conformance/recordings/
permission_no_push_403.json; the world's `"rest_permission": "no_push"`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corrections.read.notes import permissions_refused
from emulator.worlds import demo_world_path
from tests.emulation import Emulators


def test_both_apis_refusing_names_what_was_not_counted_and_the_fix(
    read_cli: Any, tmp_path: Path, emulate: Emulators
) -> None:
    server = emulate(demo_world_path(), rest_permission="no_push")
    run = read_cli(server.url, tmp_path)
    assert run.status == 0
    written = run.json()
    rest = [entry for entry in server.log() if entry["endpoint"] == "rest"]
    assert rest and {entry["status"] for entry in rest} == {403}
    # What was not counted (everyone REST was asked about), and the permission that fixes it.
    note = written["note"]
    assert note.startswith("Some corrections could not be read from GitHub (permission denied)")
    assert f"permissions of {len(rest)} people (their 👎 and comments not counted)" in note
    assert note.endswith(permissions_refused())
    assert "push (write) access" in note and "github.token" in note
    assert written["note"] in run.markdown()
    # Nothing whose permission is unknown counted: no 👎 at all.
    assert all(correction["thumbs_down"] == 0 for correction in written["corrections"])


def test_the_refused_list_with_rest_answering_loses_nothing(
    read_cli: Any, tmp_path: Path, emulate: Emulators
) -> None:
    """The default (a workflow token): REST answers, so no note at all."""
    server = emulate(demo_world_path())
    run = read_cli(server.url, tmp_path)
    assert run.status == 0 and run.json()["note"] is None
