"""The fault matrix: every way GitHub fails, on the first and on the second round trip.

Each case runs the real CLI over real HTTP against the emulator's demo world with a fault
injected, and checks the contract of docs/rules.md ("When GitHub fails"): exit 0, both files
written with a fixed note (a category of ours, never GitHub's words), a `::warning::`, the previous
run's files replaced whole, and a bounded time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from assistant.untrusted import clean_line
from corrections.read.notes import PARTS, Part
from emulator import Server
from tests.emulation import DEMO, Emulators

ROOT = Path(__file__).resolve().parent.parent.parent
EXPECTED = json.loads((ROOT / "tests" / "worlds" / "demo.expected.json").read_text(encoding="utf-8"))

# Words of GitHub's (and the proxy's) failure bodies, as the emulator sends them: none may reach a
# rendered file or a warning.
GITHUB_TEXT = (
    "Something went wrong while executing",
    "Please include",
    "502 Bad Gateway",
    "nginx",
    "Server Error",
    "Unicorn",
    "Bad credentials",
    "docs.github.com",
    "API rate limit",
    "exceeded a secondary rate limit",
    "Resource not accessible",
    "not an object",
)
# Seconds: failing cases use all of it, so keep it small; but one request may take a third of it,
# and on a shared 2-CPU machine the emulator's 100 x 100 page alone can take over 0.5 s.
FAIL_BUDGET = 3.0
SLACK = 3.0  # seconds beyond the budget a run may take (start-up, rendering, a slow CI machine)


@dataclass(frozen=True)
class Case:
    """One fault and what the run must make of it."""

    name: str
    faults: list[dict[str, Any]]
    category: str | None  # the note's category; None: recovered, no note at all
    failed: bool = False  # nothing usable: "could not be read"
    missing: tuple[Part, ...] = ()  # parts the note must name (keys of corrections.read.notes.PARTS)
    retried: bool | None = None  # True: at least one retry; False: none
    budget: float = FAIL_BUDGET
    extra: tuple[str, ...] = field(default=())
    # The page sizes corrections.json's cost reports after GitHub could not answer full pages.
    shrunk_to: dict[str, int] | None = None


def first(kind: str, **options: Any) -> list[dict[str, Any]]:
    """A fault on every CorrectionWindow request (round trip 1)."""
    return [{"kind": kind, "operation": "CorrectionWindow", "times": None, **options}]


def second(kind: str, **options: Any) -> list[dict[str, Any]]:
    """A fault on every CorrectionDetails request (round trip 2 and later)."""
    return [{"kind": kind, "operation": "CorrectionDetails", "times": None, **options}]


ROUND_TWO_LOST: tuple[Part, ...] = ("permissions", "reactions")
FLOOR = {"issues": 10, "timeline_items": 10}
HALF = {"issues": 50, "timeline_items": 50}
RESOURCE_LIMITS = {"type": "RESOURCE_LIMITS_EXCEEDED", "path": ["repository"]}

CASES = [
    # Round trip 1: nothing usable comes back.
    Case("hang", first("hang"), "timeout", failed=True),
    # GitHub's timeout, at 502 or 200: pages halved down to the floor, then retried as they are.
    # Five sizes (100, 50, 25, 12, 10) and a retry at the floor: a wider budget.
    Case(
        "timeout_502",
        first("timeout_502"),
        "GitHub timeout",
        failed=True,
        retried=True,
        budget=4.0,
        shrunk_to=FLOOR,
    ),
    Case(
        "timeout_200",
        first("timeout_200"),
        "GitHub timeout",
        failed=True,
        retried=True,
        budget=4.0,
        shrunk_to=FLOOR,
    ),
    # Resource limits null `repository`: never "not found"; the same query is not sent again.
    Case(
        "resource_limits_200",
        first("partial", **RESOURCE_LIMITS),
        "resource limits",
        failed=True,
        retried=False,
        budget=4.0,
        shrunk_to=FLOOR,
    ),
    # A token without `issues: read`: FORBIDDEN on the non-null `repository.issues` nulls
    # `repository`; never "not found", and the note names the permission.
    Case(
        "forbidden_issues",
        first("partial", path=["repository", "issues"]),
        "the token lacks issues: read",
        failed=True,
        retried=False,
    ),
    Case("html_502", first("html_502"), "GitHub server error", failed=True, retried=True),
    Case("status_500", first("status_500"), "GitHub server error", failed=True, retried=True),
    # The emulator runs the query before it cuts the answer; each retry is a real query. Under a
    # 3 s budget an attempt may take 1 s, and one that stalled that long on a loaded machine (a
    # fresh clone's run of the suite, 4 workers on 2 cores) was a timeout, not the cut answers being
    # retried. Its waits end after 4 attempts, so a wider budget costs no more time.
    Case("truncated_200", first("truncated"), "unreadable response", failed=True, retried=True, budget=10.0),
    Case("non_json_200", first("non_json"), "unreadable response", failed=True, retried=True),
    Case("bad_credentials_401", first("bad_credentials"), "bad credentials", failed=True, retried=False),
    Case("rate_limited_200", first("rate_limited"), "rate limit", failed=True, retried=False),
    Case("rate_limit_200", first("rate_limit"), "rate limit", failed=True, retried=False),
    Case("malformed", first("malformed"), "unreadable response", failed=True, retried=False),
    # Round trip 1: retried, then GitHub answers: the same corrections as without the fault.
    Case(
        "secondary_limit_403_retry_after",
        [{"kind": "secondary_limit", "retry_after": 1}],
        None,
        retried=True,
        budget=4.0,
    ),
    # One timeout or resource refusal: smaller pages at once (not the same query again), same result.
    # Half pages take more round trips (the 250-item timeline: 5 pages instead of 3): a wider budget.
    Case("timeout_502_once", [{"kind": "timeout_502"}], None, retried=False, budget=10.0, shrunk_to=HALF),
    Case("timeout_200_once", [{"kind": "timeout_200"}], None, retried=False, budget=10.0, shrunk_to=HALF),
    Case(
        "resource_limits_once",
        [{"kind": "partial", **RESOURCE_LIMITS}],
        None,
        retried=False,
        budget=10.0,
        shrunk_to=HALF,
    ),
    Case("hang_once", [{"kind": "hang"}], None, retried=True, budget=4.0),
    # Round trip 1: partial data, the rest used.
    Case(
        "partial_forbidden_labels_md",
        [{"kind": "partial", "operation": "CorrectionWindow", "path": ["repository", "labelsFile"]}],
        "the token lacks contents: read",  # FORBIDDEN on a file
        missing=("labels",),
        budget=4.0,
    ),
    Case(
        "partial_forbidden_learnings",
        [{"kind": "partial", "operation": "CorrectionWindow", "path": ["repository", "learningsFile"]}],
        "the token lacks contents: read",  # FORBIDDEN on a file
        missing=("learnings",),
        budget=4.0,
    ),
    Case(
        "partial_forbidden_issue",
        [{"kind": "partial", "operation": "CorrectionWindow", "path": ["repository", "issues", "nodes", 0]}],
        "partial answer",
        missing=("issues",),
        budget=4.0,
    ),
    # Round trip 2 (details): the window is used, what the details would have added is named.
    Case("details_hang", second("hang"), "timeout", missing=ROUND_TWO_LOST, budget=4.0),
    Case(
        "details_timeout_502",
        second("timeout_502"),
        "GitHub timeout",
        missing=(*ROUND_TWO_LOST, "timelines"),
        retried=True,
        budget=4.0,
        shrunk_to=FLOOR,
    ),
    Case(
        "details_timeout_200",
        second("timeout_200"),
        "GitHub timeout",
        missing=(*ROUND_TWO_LOST, "timelines"),
        retried=True,
        budget=4.0,
        shrunk_to=FLOOR,
    ),
    Case(
        "details_html_502",
        second("html_502"),
        "GitHub server error",
        missing=ROUND_TWO_LOST,
        retried=True,
        budget=4.0,
    ),
    Case(
        "details_truncated_200",
        second("truncated"),
        "unreadable response",
        missing=ROUND_TWO_LOST,
        retried=True,
        budget=4.0,
    ),
    Case("details_malformed", second("malformed"), "unreadable response", missing=ROUND_TWO_LOST),
    Case("details_rate_limited_200", second("rate_limited"), "rate limit", missing=ROUND_TWO_LOST),
    Case("details_rate_limit_200", second("rate_limit"), "rate limit", missing=ROUND_TWO_LOST),
    Case("details_bad_credentials_401", second("bad_credentials"), "bad credentials", missing=ROUND_TWO_LOST),
    Case(
        "details_secondary_limit_403_retry_after",
        [{"kind": "secondary_limit", "operation": "CorrectionDetails", "retry_after": 1}],
        None,
        retried=True,
        budget=4.0,
    ),
    Case(
        "details_partial_forbidden_reactions",
        [{"kind": "partial", "operation": "CorrectionDetails", "path": ["analyses_0", 0]}],
        "partial answer",
        missing=("reactions",),
        budget=4.0,
    ),
]


def check_contract(run: Any, case: Case, replaced_whole: Callable[[Path], None]) -> None:
    """What every fault case must hold."""
    assert run.status == 0
    written = run.json()
    markdown = run.markdown()
    replaced_whole(run.out)
    shown = markdown + json.dumps(written, ensure_ascii=False) + "\n".join(run.warnings)
    for text in GITHUB_TEXT:
        assert text not in shown, f"GitHub's text {text!r} reached the output"
    if case.category is None:
        assert written["note"] is None
        assert run.github_warnings == []
        assert written["window"] == EXPECTED["window"]
        # The window's corrections as counted by hand (tests/corrections/commands/test_read_e2e.py):
        # the horizon past it adds older ones from the scan pages read (fewer when pages shrank), and
        # the labels each analysis kept are counted where the world says them.
        horizon = set(written["horizon"])
        assert not horizon & set(EXPECTED["window"])
        hands = {c["number"]: c for c in EXPECTED["corrections"]}
        assert [
            {k: v for k, v in c.items() if k != "labels_kept" or k in hands.get(c["number"], {})}
            for c in written["corrections"]
            if c["number"] not in horizon
        ] == [{**c, "title": clean_line(c["title"])} for c in EXPECTED["corrections"]]
        return
    note = written["note"]
    assert note is not None and f"({case.category}" in note
    assert note in markdown
    assert len(run.github_warnings) == 1 and note in run.github_warnings[0]
    if case.failed:
        assert note.startswith("Corrections could not be read from GitHub")
        assert written["window"] == [] and written["corrections"] == []
        assert not (run.out / "learnings.md").exists()
    else:
        assert note.startswith("Some corrections could not be read from GitHub")
        assert written["window"], "the part that was read is used"
    for part in case.missing:
        # People's permissions are counted when the run knows how many it could not read.
        counted = re.sub(r"permissions of \d+ (person|people) ", "permissions of some people ", note)
        assert PARTS[part] in counted
    if "learnings" in case.missing:
        # Learnings that could not be read are not shown as "none recorded".
        assert not (run.out / "learnings.md").exists()


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_fault(
    case: Case,
    demo_server: Server,
    read_cli: Any,
    tmp_path: Path,
    previous_run: Callable[[Path], None],
    replaced_whole: Callable[[Path], None],
    timings: dict[str, dict[str, Any]],
) -> None:
    previous_run(tmp_path)
    demo_server.set_faults(case.faults)
    try:
        run = read_cli(demo_server.url, tmp_path, budget=case.budget)
    finally:
        demo_server.set_faults([])
    check_contract(run, case, replaced_whole)
    assert run.json()["cost"].get("pages_shrunk_to") == case.shrunk_to
    if case.retried is True:
        assert run.retries >= 1
    elif case.retried is False:
        assert run.retries == 0
    assert run.seconds < case.budget + SLACK
    if case.name.startswith(("secondary", "details_secondary")):
        assert run.seconds >= 1.0, "retry-after was honoured"
    timings[case.name] = {
        "seconds": round(run.seconds, 2),
        "budget": case.budget,
        "exit": run.status,
        "category": case.category,
        "note": run.json()["note"],
        "retries": run.retries,
    }


def test_connection_refused(
    closed_port_url: str,
    read_cli: Any,
    tmp_path: Path,
    previous_run: Callable[[Path], None],
    replaced_whole: Callable[[Path], None],
    timings: dict[str, dict[str, Any]],
) -> None:
    case = Case("connection_refused", [], "network error", failed=True, retried=True)
    previous_run(tmp_path)
    run = read_cli(closed_port_url, tmp_path, budget=case.budget)
    check_contract(run, case, replaced_whole)
    assert run.retries >= 1
    assert run.seconds < case.budget + SLACK
    timings[case.name] = {
        "seconds": round(run.seconds, 2),
        "budget": case.budget,
        "exit": run.status,
        "category": case.category,
        "note": run.json()["note"],
        "retries": run.retries,
    }


def test_graphql_collaborators_forbidden_falls_back_to_rest(
    read_cli: Any,
    tmp_path: Path,
    previous_run: Callable[[Path], None],
    replaced_whole: Callable[[Path], None],
    timings: dict[str, dict[str, Any]],
    emulate: Emulators,
) -> None:
    case = Case("collaborators_forbidden_rest_fallback", [], None, budget=5.0)
    previous_run(tmp_path)
    server = emulate(DEMO, collaborators_via_graphql="forbidden")
    run = read_cli(server.url, tmp_path, budget=case.budget)
    rest = [entry for entry in server.log() if entry.get("endpoint") == "rest"]
    check_contract(run, case, replaced_whole)
    assert rest and all("/permission" in entry["path"] for entry in rest)
    assert run.seconds < case.budget + SLACK
    timings[case.name] = {
        "seconds": round(run.seconds, 2),
        "budget": case.budget,
        "exit": run.status,
        "category": None,
        "note": None,
        "retries": run.retries,
        "rest_requests": len(rest),
    }


def test_budget_exhausted_mid_run(
    read_cli: Any,
    tmp_path: Path,
    previous_run: Callable[[Path], None],
    replaced_whole: Callable[[Path], None],
    timings: dict[str, dict[str, Any]],
    emulate: Emulators,
) -> None:
    """One point left: the window is read, the details are refused (RATE_LIMITED, reset an hour away)."""
    case = Case(
        "budget_exhausted_mid_run", [], "rate limit", missing=ROUND_TWO_LOST, retried=False, budget=20.0
    )
    previous_run(tmp_path)
    server = emulate(DEMO, rate_limit={"limit": 5000, "remaining": 1, "reset_in_s": 3600})
    run = read_cli(server.url, tmp_path, budget=case.budget)
    statuses = [(entry["operation"], entry["status"]) for entry in server.log()]
    check_contract(run, case, replaced_whole)
    assert statuses[0] == ("CorrectionWindow", 200) and statuses[1][0] == "CorrectionDetails"
    # No waiting for an hour-away reset, even with a generous budget.
    assert run.seconds < 5.0
    timings[case.name] = {
        "seconds": round(run.seconds, 2),
        "budget": case.budget,
        "exit": run.status,
        "category": case.category,
        "note": run.json()["note"],
        "retries": run.retries,
    }


@pytest.mark.parametrize("status", [403, 429])
def test_rest_primary_rate_limit_is_a_rate_limit_not_a_refusal(
    status: int,
    read_cli: Any,
    tmp_path: Path,
    previous_run: Callable[[Path], None],
    replaced_whole: Callable[[Path], None],
    timings: dict[str, dict[str, Any]],
    emulate: Emulators,
) -> None:
    """REST's permission look-up meets its primary limit (403/429, remaining 0, reset an hour away)."""
    case = Case(f"rest_rate_limited_{status}", [], "rate limit", missing=("permissions",), budget=10.0)
    previous_run(tmp_path)
    server = emulate(
        DEMO,
        collaborators_via_graphql="forbidden",
        faults=[{"kind": "rest_rate_limited", "endpoint": "rest", "status": status, "times": None}],
    )
    run = read_cli(server.url, tmp_path, budget=case.budget)
    rest = [entry for entry in server.log() if entry.get("endpoint") == "rest"]
    check_contract(run, case, replaced_whole)
    # Not waited for (the reset is an hour away): no look-up is sent twice.
    paths = [entry["path"] for entry in rest]
    assert paths and len(set(paths)) == len(paths)
    assert all(entry["status"] == status for entry in rest)
    assert run.seconds < case.budget + SLACK
    timings[case.name] = {
        "seconds": round(run.seconds, 2),
        "budget": case.budget,
        "exit": run.status,
        "category": case.category,
        "note": run.json()["note"],
        "retries": run.retries,
        "rest_requests": len(rest),
    }
