"""A query too big for GitHub, end to end: the emulator's server-time model refuses the full pages
(GitHub's timeout at 502 or 200, or RESOURCE_LIMITS_EXCEEDED), `corrections read` halves the pages
and reads the same corrections, and says so; at the floor it ends as a GitHub failure, exit 0."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assistant.untrusted import clean_line
from corrections.commands.cli import main
from tests.emulation import DEMO, Emulators

ROOT = Path(__file__).resolve().parents[3]
EXPECTED = json.loads((ROOT / "tests" / "worlds" / "demo.expected.json").read_text(encoding="utf-8"))


def read(server: Any, out: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    return main(["read", "--repo", "octo/demo", "--api-url", server.url, "--out", str(out), *extra])


@pytest.mark.parametrize("answer", ["timeout_502", "timeout_200", "resource_limits"])
def test_full_pages_too_slow_are_halved_and_the_corrections_are_the_same(
    answer: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    emulate: Emulators,
) -> None:
    # 1 ms a node: 100 issues x 100 items (10,100+ nodes) pass 10 s; 50 x 50 (2,550+) does not.
    server = emulate(DEMO, server_time={"ms_per_node": 1, "answer": answer})
    status = read(server, tmp_path, monkeypatch)
    log = server.log()
    assert status == 0
    written = json.loads((tmp_path / "corrections.json").read_text(encoding="utf-8"))
    assert written["note"] is None
    assert written["window"] == EXPECTED["window"]
    # The window's corrections are those of a read GitHub answers at full size, key by key
    # (labels_kept included), and those counted by hand. The horizon holds older corrections of the
    # pages read only: smaller pages reach fewer issues past the window, never other ones.
    plain = emulate(DEMO)
    assert read(plain, tmp_path / "plain", monkeypatch) == 0
    full = json.loads((tmp_path / "plain" / "corrections.json").read_text(encoding="utf-8"))

    def window_part(out: dict[str, Any]) -> list[dict[str, Any]]:
        return [c for c in out["corrections"] if c["number"] not in set(out["horizon"])]

    assert window_part(written) == window_part(full)
    assert set(written["horizon"]) <= set(full["horizon"])
    assert [c for c in written["corrections"] if c["number"] in set(written["horizon"])] == [
        c for c in full["corrections"] if c["number"] in set(written["horizon"])
    ]
    by_hand = [{k: v for k, v in c.items() if k != "labels_kept"} for c in window_part(written)]
    assert by_hand == [{**c, "title": clean_line(c["title"])} for c in EXPECTED["corrections"]]
    assert written["cost"]["pages_shrunk_to"] == {"issues": 50, "timeline_items": 50}
    assert written["cost"]["requests"] == len(log)
    # One refusal, then only smaller queries: the full-size query is never sent again.
    graphql = [e for e in log if e.get("endpoint") == "graphql"]
    assert [e["timed_out"] for e in graphql] == [True] + [False] * (len(graphql) - 1)
    assert graphql[0]["operation"] == graphql[1]["operation"] == "CorrectionWindow"
    assert graphql[1]["nodes"] < graphql[0]["nodes"] / 3
    err = capsys.readouterr().err
    assert "GitHub could not answer a scan page of 100 issues with 100 timeline items each" in err
    assert "pages shrunk to 50 issues with 50 timeline items each" in err


def test_a_query_that_fails_at_the_floor_ends_as_a_github_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], emulate: Emulators
) -> None:
    # 200 ms a node: even 10 issues x 10 items (110+ nodes) take more than 10 s.
    server = emulate(DEMO, server_time={"ms_per_node": 200, "answer": "timeout_200"})
    status = read(server, tmp_path, monkeypatch, "--time-budget", "3")
    log = server.log()
    assert status == 1  # at a terminal a failed read is a failure; its files are written all the same
    written = json.loads((tmp_path / "corrections.json").read_text(encoding="utf-8"))
    assert written["note"] == (
        "Corrections could not be read from GitHub (GitHub timeout); this analysis has no corrections."
    )
    assert written["window"] == [] and written["corrections"] == []
    assert written["cost"]["pages_shrunk_to"] == {"issues": 10, "timeline_items": 10}
    # 100, 50, 25, 12, then 10 with the ordinary retries: bounded by the policy's 4 attempts.
    sizes = [e["nodes"] for e in log]
    assert sizes[:4] == sorted(sizes[:4], reverse=True) and len(set(sizes[4:])) == 1
    assert 5 <= len(log) <= 4 + 4
    # Outside GitHub Actions the warning is a plain line on stderr, with what to check.
    err = capsys.readouterr().err
    assert "Corrections could not be read from GitHub (GitHub timeout)" in err
    assert "GitHub stopped the query after its 10 s limit even with the smallest pages" in err


def test_explain_halves_its_page_and_explains_the_same(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    emulate: Emulators,
    retry_pauses: list[float],
) -> None:
    """`corrections explain` asks one issue with 100 timeline items; under a model where that passes
    GitHub's 10 s, it asks again with 50 (one mechanism with the read: queries.page_sizes) and
    learns the same. The model is extreme (100 nodes take 10 s), so the permission round, as big
    as the full page, is refused too (retried, its waits not slept): the explanation says that it
    could not read them."""
    monkeypatch.setenv("GITHUB_TOKEN", "explain-token")
    plain = emulate(DEMO)
    assert main(["explain", "41", "--repo", "octo/demo", "--api-url", plain.url]) == 0
    expected = capsys.readouterr().out
    trail = next(e for e in plain.log() if e["operation"] == "IssueTrail")
    per_node = 10_000 / trail["nodes"] * 1.2  # the full page passes 10 s, half a page does not
    slow = emulate(DEMO, server_time={"ms_per_node": per_node, "answer": "timeout_502"})
    assert main(["explain", "41", "--repo", "octo/demo", "--api-url", slow.url]) == 0
    out, err = capsys.readouterr()
    trails = [e for e in slow.log() if e["operation"] == "IssueTrail"]
    assert [e["timed_out"] for e in trails] == [True, False]
    assert "GitHub could not answer a query of 1 issue with 100 timeline items each" in err

    def verdicts(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.lstrip().startswith(("=>", "Label", "First"))]

    assert verdicts(out) == verdicts(expected) and verdicts(out)
    assert retry_pauses, "the refused permission round was retried"
