"""`learnings sync` says what to check when GitHub refuses it, in the reader's words (queries.advice):
a token without `issues: read` was reported as "not found", bad credentials with no hint."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Server
from learnings.cli import main
from learnings.commands import pacing

ISSUES = (
    "learnings: sync: could not read octo/demo from GitHub: the token lacks issues: read. The token "
    "may not read the repository's issues: give the workflow's job `permissions: issues: read` (or "
    "`issues: write`), or pass in GITHUB_TOKEN (else GH_TOKEN) a token that can read them."
)
CREDENTIALS = (
    "learnings: sync: could not read octo/demo from GitHub: bad credentials. GitHub did not accept the "
    "token: check that GITHUB_TOKEN (else GH_TOKEN) holds a token that is valid and not expired, with "
    "read access to the repository's issues, pull requests and contents."
)


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        # A workflow token without `issues: read`: FORBIDDEN on `repository.issues` nulls `repository`.
        ({"kind": "partial", "operation": "LearningSources", "path": ["repository", "issues"]}, ISSUES),
        ({"kind": "bad_credentials", "operation": "SyncTarget"}, CREDENTIALS),
    ],
    ids=["without issues: read", "bad credentials"],
)
def test_a_refused_sync_says_what_to_check(  # noqa: PLR0917 - pytest fixtures
    fault: dict[str, Any],
    said: str,
    server: Server,
    time_machine: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server.set_faults([{**fault, "times": None}])
    monkeypatch.setenv("GITHUB_TOKEN", "sync-token")
    monkeypatch.setattr(pacing, "PACING", pacing.Pacing(time_machine.sleep, time_machine.clock))
    status = main(["sync", "--repo", "octo/demo", "--api-url", server.url])
    out, err = capsys.readouterr()
    assert status == 1 and out == ""
    assert err.splitlines() == [said]
