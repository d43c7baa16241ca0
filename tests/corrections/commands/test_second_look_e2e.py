"""`corrections answer`'s second look (issue 32) against the emulator, over real HTTP: the
duplicate target's state asked in one request at most (none when an objection decides), what is
left out said in the comment and recorded in the marker, the switch of the configuration.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from assistant.markers import payloads
from corrections.commands.cli import main
from emulator import Server, serve_in_thread
from emulator.store import Store
from emulator.world import parse_world
from tests.kit.world import closed, place, placed_issue, world

OWNER, NAME = "octo", "second"
AT = "2026-05-04T10:00:00Z"


def _issue(number: int, *, timeline: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    found = placed_issue(number, f"Issue {number}", "rosa", AT, "", timeline or [])
    return {**found, **extra}


def _world(faults: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    closing = "2026-05-05T10:00:00Z"
    issues = [
        _issue(12),
        _issue(13, timeline=[place(closed("mara", "NOT_PLANNED"), closing)]),
        _issue(14, timeline=[place(closed("mara", "DUPLICATE"), closing)]),
        _issue(15, locked=True),
        _issue(17),
        _issue(18, timeline=[place(closed("mara", "COMPLETED"), closing)]),
        _issue(61),
    ]
    pull = {**_issue(16), "base": "main", "head": "fix"}
    found = world(
        OWNER,
        NAME,
        users={"mara": "User", "rosa": "User"},
        permissions={"mara": "MAINTAIN"},
        files={"main": {}},
        issues=issues,
        pull_requests=[pull],
    )
    if faults:
        found["faults"] = faults
    return found


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serve_in_thread(Store(parse_world(_world()))) as running:
        yield running


def _context(folder: Path, *, second_look: bool | None = True, kept: int = 0) -> Path:
    """A context folder as `corrections read` writes it: #30 corrected by a maintainer (performance
    removed, a notice naming #17 objected to), #31 and #32 (performance removed, bug kept)."""
    folder.mkdir(parents=True, exist_ok=True)

    def correction(number: int, kept: list[str], duplicate: dict[str, Any] | None = None) -> dict[str, Any]:
        return {
            "number": number,
            "title": f"Slow sync {number}",
            "labels_removed": ["performance"],
            "labels_added": ["bug"],
            "labels_kept": kept,
            "duplicate": duplicate,
            "thumbs_down": 0,
            "date": "2026-05-01",
        }

    index: dict[str, Any] = {
        "v": 1,
        "repository": f"{OWNER}/{NAME}",
        "window": [30, 31, 32],
        "corrections": [
            correction(30, [], {"of": 17, "outcome": "objected", "by": "maintainer"}),
            correction(31, ["bug"]),
            correction(32, []),
        ],
        "vocabulary": ["bug", "performance", "docs"],
        "learnings": [],
        "kept": {"performance": {"proposed": 3 + kept, "kept": kept}},
    }
    if second_look is not None:
        index["second_look"] = second_look
    (folder / "corrections.json").write_text(json.dumps(index), encoding="utf-8")
    return folder


def _answer(
    tmp_path: Path,
    server_url: str,
    duplicate_of: object,
    capsys: pytest.CaptureFixture[str],
    *,
    second_look: bool | None = True,
    labels: tuple[str, ...] = ("bug",),
    kept: int = 0,
) -> tuple[str, dict[str, Any], str, str]:
    """The comment, its marker's payload, the labels printed and stderr."""
    response = tmp_path / "answer.json"
    analysis = "Slow sync again; it looks like an earlier report."
    response.write_text(
        json.dumps({"labels": list(labels), "duplicate_of": duplicate_of, "analysis": analysis})
    )
    out = tmp_path / "comment.md"
    context = _context(tmp_path / "context", second_look=second_look, kept=kept)
    capsys.readouterr()
    argv = ["answer", "--response", str(response), "--issue", "61", "--context", str(context)]
    assert main([*argv, "--api-url", server_url, "--out", str(out)]) == 0
    captured = capsys.readouterr()
    body = out.read_text(encoding="utf-8")
    return body, json.loads(payloads(body, "analysis")[-1]), captured.out, captured.err


def _requests(server: Server) -> int:
    return sum(1 for entry in server.log() if entry.get("operation") == "DuplicateTarget")


@pytest.mark.parametrize(
    ("target", "why", "asked"),
    [
        (12, None, 1),  # open, unlocked, an issue here: named
        (13, "not_planned", 1),
        (14, "closed_as_duplicate", 1),
        (15, "locked", 1),
        (16, "not_an_issue", 1),  # a pull request of this repository
        (99, "not_an_issue", 1),  # no issue or pull request has the number here
        (18, "closed", 1),
        (17, "objected", 0),  # the read's objection decides: no request
    ],
)
def test_the_duplicate_target_is_held_against_github_and_the_objections(
    *,
    tmp_path: Path,
    server: Server,
    capsys: pytest.CaptureFixture[str],
    target: int,
    why: str | None,
    asked: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    before = _requests(server)
    body, marker, labels, _ = _answer(tmp_path, server.url, target, capsys)
    assert _requests(server) - before == asked
    assert labels == "bug\n"
    if why is None:
        assert marker["duplicate_of"] == target and "second_look" not in marker
        assert "I did not name" not in body
        return
    assert marker["duplicate_of"] is None
    assert marker["second_look"] == [{"duplicate_of": target, "why": why}]
    assert f"I did not name `#{target}` as a duplicate: " in body
    assert f"#{target} " not in body.replace(f"`#{target}`", "")  # no live reference to the target


def test_a_target_the_read_cannot_see_is_left_out_when_github_cannot_say(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fault = {"kind": "bad_credentials", "operation": "DuplicateTarget", "times": None}
    with serve_in_thread(Store(parse_world(_world([fault])))) as failing:
        monkeypatch.setenv("GITHUB_TOKEN", "test-token")
        body, marker, _, err = _answer(tmp_path, failing.url, 12, capsys)
        assert marker["second_look"] == [{"duplicate_of": 12, "why": "unseen"}]
        assert "second look: #12 left out: GitHub did not say what #12 is (BadCredentials)" in err
        assert "I could not check that it is an open issue here" in body
        monkeypatch.delenv("GITHUB_TOKEN")
        monkeypatch.delenv("GH_TOKEN", raising=False)
        monkeypatch.setenv("PATH", "")  # no gh to ask for a token either
        before = len(failing.log())
        _, marker, _, err = _answer(tmp_path, failing.url, 12, capsys)
        assert len(failing.log()) == before and marker["second_look"][0]["why"] == "unseen"
        assert "no token" in err


def test_a_label_maintainers_removed_nearby_is_left_out_and_said(
    tmp_path: Path, server: Server, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    body, marker, labels, _ = _answer(tmp_path, server.url, None, capsys, labels=("bug", "performance"))
    assert labels == "bug\n" and marker["labels"] == ["bug"]
    assert marker["second_look"] == [{"label": "performance", "why": "removed_nearby", "removed": 3}]
    assert "I did not add `performance`: " in body
    # Kept on one analysis of the window (corrections.json's `kept`): never held back.
    _, marker, labels, _ = _answer(tmp_path, server.url, None, capsys, labels=("bug", "performance"), kept=1)
    assert labels == "bug,performance\n" and "second_look" not in marker


def test_the_configuration_switches_it_off(
    tmp_path: Path, server: Server, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    before = _requests(server)
    _, marker, labels, _ = _answer(
        tmp_path, server.url, 17, capsys, second_look=False, labels=("bug", "performance")
    )
    assert _requests(server) == before
    assert (labels, marker["duplicate_of"], "second_look" in marker) == ("bug,performance\n", 17, False)
    # A folder of an earlier version, without the switch: on.
    _, marker, _, _ = _answer(tmp_path, server.url, 17, capsys, second_look=None)
    assert marker["second_look"] == [{"duplicate_of": 17, "why": "objected"}]


@pytest.mark.parametrize(
    ("name", "target", "labels"),
    [
        ("objected-and-label.md", 17, ("bug", "performance")),
        ("not-planned.md", 13, ("bug",)),
        ("named.md", 12, ("bug",)),
    ],
)
def test_the_posted_comment(
    *,
    tmp_path: Path,
    server: Server,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    snapshot: SnapshotAssertion,
    name: str,
    target: int,
    labels: tuple[str, ...],
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    body, _, _, _ = _answer(tmp_path, server.url, target, capsys, labels=labels)
    assert body == snapshot(name=name)
