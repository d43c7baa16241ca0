"""The conformance check's own code (tests/conformance/recorder.py, shapes.py, __main__.py), tested
on the emulator itself: it cannot reach github.com from here. The whole scenario is recorded from
the emulator as if it were GitHub, then run again against the emulator and compared: equal. The
recording holds every named operation of queries/*.graphql but those the scenario lists as not
exercised. A recording changed in one place makes the comparer fail, naming the step, the
operation and the path."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import io
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from learnings.commands import pacing
from tests.conformance.__main__ import differences, emulator_recordings, main, read, write
from tests.conformance.recorder import Recording
from tests.conformance.scenario import NOT_EXERCISED, SANDBOX_WORLD, SCENARIO
from tests.conformance.shapes import Normaliser, compare, route
from tests.once_per_run import once_per_run
from tests.writepath.conftest import VirtualTime

QUERIES = Path(__file__).resolve().parents[2] / "queries"
Exchanges = dict[str, list[dict[str, Any]]]


def _in_process(argv: list[str], cwd: Path, environment: dict[str, str]) -> int:
    """A step (`-m PROGRAM ARGS`) through its command's `main` in this process, in the step's
    folder and environment, its output kept apart; the sync's pauses between mutations on a virtual
    clock (the fixture's). Its exchanges must equal those of the same step run as a process."""
    from corrections.commands.cli import main as corrections_main
    from learnings.cli import main as learnings_main

    flag, program, *arguments = argv
    assert flag == "-m", argv
    main = {"corrections": corrections_main, "learnings": learnings_main}[program]
    with pytest.MonkeyPatch.context() as patch:
        for key in [*os.environ]:
            patch.delenv(key)
        for key, value in environment.items():
            patch.setenv(key, value)
        patch.chdir(cwd)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                return main(arguments)
            except SystemExit as leaving:
                return leaving.code if isinstance(leaving.code, int) else int(leaving.code is not None)


@pytest.fixture(scope="module")
def both_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Recording], list[Recording]]:
    """The whole scenario run twice against the sandbox world: the first recorded as if the
    emulator were GitHub, each step its own process as the conformance workflow runs it; the
    second as `compare` runs it, each step through its command's `main` in this process (13
    processes fewer), so the comparison also holds the commands in a process to the same shapes.
    Built once per run, however many workers this module's tests are spread over."""

    def both() -> list[list[dict[str, Any]]]:
        first = emulator_recordings(SANDBOX_WORLD, tmp_path_factory.mktemp("first"))
        paced = VirtualTime()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pacing, "PACING", pacing.Pacing(paced.sleep, paced.clock))
            second = emulator_recordings(SANDBOX_WORLD, tmp_path_factory.mktemp("second"), run=_in_process)
        return [[dataclasses.asdict(recording) for recording in run] for run in (first, second)]

    first, second = once_per_run(tmp_path_factory, "conformance-both-runs", both)
    return [Recording(**fields) for fields in first], [Recording(**fields) for fields in second]


@pytest.fixture(scope="module")
def runs(both_runs: tuple[list[Recording], list[Recording]]) -> tuple[Exchanges, Exchanges]:
    """Two runs of the whole scenario against the sandbox world: the first as "GitHub's" recording."""
    first, second = both_runs
    return (
        {recording.step: recording.exchanges for recording in first},
        {recording.step: recording.exchanges for recording in second},
    )


def _operations() -> set[str]:
    """Every named query and mutation of queries/*.graphql (fragments are parts of them)."""
    return {
        match.group(1)
        for path in QUERIES.glob("*.graphql")
        for match in re.finditer(r"^(?:query|mutation)\s+(\w+)", path.read_text(encoding="utf-8"), re.M)
    }


def _exchange(runs: Exchanges, step: str, operation: str) -> dict[str, Any]:
    return next(e for e in runs[step] if e.get("operation") == operation)


def test_the_scenario_sends_queries_rest_and_mutations(runs: tuple[Exchanges, Exchanges]) -> None:
    recorded, _ = runs
    routes = {route(e) for exchanges in recorded.values() for e in exchanges}
    assert {"graphql SyncTarget", "graphql LearningSources", "graphql CorrectionDetails"} <= routes
    assert {"graphql CreateRef", "graphql CreateCommitOnBranch", "graphql CreatePullRequest"} <= routes
    assert "rest GET /repos/OWNER/REPO/collaborators/{login}/permission" in routes


def test_the_scenario_sends_every_operation_of_queries(runs: tuple[Exchanges, Exchanges]) -> None:
    recorded, _ = runs
    sent = {
        e["operation"] for exchanges in recorded.values() for e in exchanges if e["endpoint"] == "graphql"
    }
    operations = _operations()
    assert len(operations) >= 20, sorted(operations)
    assert set(NOT_EXERCISED) <= operations, "a name the scenario excuses is an operation of queries/"
    assert sorted(operations - set(NOT_EXERCISED) - sent) == []
    assert not set(NOT_EXERCISED) & sent, "an operation the scenario says it cannot send was sent: drop it"


def test_every_step_ends_well_and_reaches_github(
    both_runs: tuple[list[Recording], list[Recording]], runs: tuple[Exchanges, Exchanges]
) -> None:
    recorded, _ = runs
    for recordings in both_runs:  # as processes, then through each command's main
        assert [r.step for r in recordings] == [step.name for step in SCENARIO]
        assert {r.step: r.exit_status for r in recordings if r.exit_status != 0} == {}
    assert [step for step in recorded if not recorded[step]] == []
    statuses = {
        e["status"] for exchanges in recorded.values() for e in exchanges if e["endpoint"] == "graphql"
    }
    assert statuses == {200}
    rest = {route(e) for exchanges in recorded.values() for e in exchanges if e["endpoint"] == "rest"}
    assert {
        "rest GET /repos/OWNER/REPO/collaborators",
        "rest GET /repos/OWNER/REPO/collaborators/{login}/permission",
        "rest GET /repos/OWNER/REPO/actions/permissions/workflow",
    } <= rest, rest


def test_recorded_from_the_emulator_the_emulator_compares_equal(runs: tuple[Exchanges, Exchanges]) -> None:
    assert differences(*runs) == []


def test_the_recording_is_normalised(runs: tuple[Exchanges, Exchanges], tmp_path: Path) -> None:
    recorded, _ = runs
    recording = Recording("sync", ["learnings", "sync"], 0, recorded["sync"])
    [path] = write([recording], tmp_path)
    text = path.read_text(encoding="utf-8")
    # (The repository's own files keep their text: the learnings file names comment ids.)
    for real in ("octo/demo", '"mara"', "2026-", "triage-assistant"):
        assert real not in text, real
    target = _exchange(recorded, "sync", "SyncTarget")
    assert target["variables"]["owner"] == "OWNER" and target["variables"]["name"] == "REPO"
    assert read(tmp_path) == {"sync": recorded["sync"]}, "written and read back unchanged"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda r: r["data"]["rateLimit"].update(cost="1"),
            "sync: graphql SyncTarget: data.rateLimit.cost: GitHub answers string, the emulator number",
        ),
        (
            lambda r: r["data"]["rateLimit"].pop("cost"),
            "sync: graphql SyncTarget: data.rateLimit.cost: the emulator answers it, GitHub does not",
        ),
        (
            lambda r: r["data"]["rateLimit"].update(cost=None),
            "sync: graphql SyncTarget: data.rateLimit.cost: nullability: GitHub answers null",
        ),
    ],
    ids=["type", "field", "nullability"],
)
def test_a_changed_recording_fails_naming_the_path(
    runs: tuple[Exchanges, Exchanges], change: Any, expected: str
) -> None:
    recorded, answered = runs
    changed = copy.deepcopy(recorded)
    change(_exchange(changed, "sync", "SyncTarget")["response"])
    found = differences(changed, answered)
    assert len(found) == 1 and found[0].startswith(expected), found


def test_an_error_type_and_a_status_are_compared(runs: tuple[Exchanges, Exchanges]) -> None:
    recorded, answered = runs
    changed = copy.deepcopy(recorded)
    details = _exchange(changed, "sync", "CorrectionDetails")
    details["response"]["errors"][0]["type"] = "NOT_FOUND"
    rest = next(e for e in changed["sync"] if e["endpoint"] == "rest")
    rest["status"] = 403
    found = differences(changed, answered)
    assert any(
        line.startswith("sync: graphql CorrectionDetails: errors[].type: GitHub names ['NOT_FOUND']")
        for line in found
    ), found
    assert any(
        "collaborators/{login}/permission: status: GitHub [403], the emulator [200]" in line for line in found
    ), found


def test_a_rest_key_only_github_sends_is_not_a_difference_one_only_the_emulator_sends_is() -> None:
    """REST objects carry many keys the product never reads; the emulator answers a subset."""
    github = [
        {"endpoint": "rest", "method": "GET", "path": "/x", "status": 200, "response": {"a": 1, "b": 2}}
    ]
    emulator = [
        {"endpoint": "rest", "method": "GET", "path": "/x", "status": 200, "response": {"a": 1, "c": 3}}
    ]
    assert compare(github, emulator) == ["rest GET /x: c: the emulator answers it, GitHub does not"]


def test_a_route_asked_of_one_side_only_is_a_difference() -> None:
    asked = {"endpoint": "graphql", "operation": "IssueTrail", "status": 200, "response": {"data": {}}}
    assert compare([asked], []) == ["graphql IssueTrail: asked of GitHub, never of the emulator"]


def test_the_normaliser_keeps_kinds_and_equal_values_equal() -> None:
    norm = Normaliser("octo/demo")
    answer = {
        "id": "MDU6SXNzdWUx",
        "databaseId": 2400009001,
        "fullDatabaseId": "2400009001",
        "author": {"login": "mara"},
        "editor": {"login": "mara"},
        "bot": {"login": "github-actions[bot]"},
        "createdAt": "2026-11-01T10:05:00Z",
        "pageInfo": {"endCursor": "Y3Vyc29yOjE="},
        "oid": "a" * 40,
        "url": "https://github.com/octo/demo/issues/1",
        "body": "see octo/demo at 2026-11-01T10:05:00Z",
        "number": 1,
    }
    out = norm.value("", answer)
    assert out["id"] == "<id 1>" and out["databaseId"] == 1 and out["fullDatabaseId"] == "<id 2>"
    assert out["author"] == out["editor"] == {"login": "login-1"}
    assert out["bot"] == {"login": "login-2[bot]"}
    assert (
        out["createdAt"] == "2000-01-01T00:00:01Z" and out["body"] == "see OWNER/REPO at 2000-01-01T00:00:01Z"
    )
    assert out["pageInfo"]["endCursor"] == "<cursor 1>" and out["oid"] == "<oid 1>"
    assert out["url"] == "<url>" and out["number"] == 1
    assert norm.path("/repos/octo/demo/collaborators/mara/permission", {}) == (
        "/repos/OWNER/REPO/collaborators/login-1/permission"
    )


def test_compare_reads_a_bad_recording_as_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "read.json").write_text(json.dumps({"source": {}}), encoding="utf-8")
    with pytest.raises(SystemExit, match=r"read\.json: not a recording"):
        main(["compare", "--recordings", str(tmp_path)])


def test_compare_without_recordings_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["compare", "--recordings", str(tmp_path)]) == 2
