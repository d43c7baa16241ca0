"""`corrections read` end to end: the real gql client over real HTTP against the emulator.

The expected results in tests/worlds/*.expected.json were counted by hand from docs/rules.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from assistant.untrusted import clean_line
from corrections.commands.cli import main
from tests.emulation import Emulators

WORLDS = Path(__file__).resolve().parents[2] / "worlds"
DEMO = Path(__file__).resolve().parents[3] / "emulator" / "worlds" / "demo.json"
CASES = sorted(
    path.name.removesuffix(".expected.json")
    for path in WORLDS.glob("*.expected.json")
    if path.name != "demo.expected.json"
)


def world_path(case: str) -> Path:
    return DEMO if case == "demo" else WORLDS / f"{case}.json"


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def read(
    server: Any,
    world: Path,
    out: Path,
    monkeypatch: pytest.MonkeyPatch,
    *extra: str,
    config: Path | None = None,
) -> int:
    repository = load(world)["repository"]
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    argv = [
        "read",
        "--repo",
        f"{repository['owner']}/{repository['name']}",
        "--api-url",
        server.url,
        "--out",
        str(out),
    ]
    if config is not None:
        argv += ["--config", str(config)]
    return main([*argv, *extra])


def config_for(expected: Any, tmp_path: Path) -> Path | None:
    settings = expected.get("config")
    if not settings:
        return None
    lines = []
    for section, values in settings.items():
        lines.append(f"[{section}]")
        lines += [f"{key} = {json.dumps(value)}" for key, value in values.items()]
    path = tmp_path / "assistant.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def expected_corrections(expected: Any) -> list[dict[str, Any]]:
    return [{**entry, "title": clean_line(entry["title"])} for entry in expected["corrections"]]


@pytest.mark.parametrize("case", ["demo", *CASES])
def test_corrections_match_the_hand_count(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, emulate: Emulators
) -> None:
    expected = load(WORLDS / f"{case}.expected.json")
    world = world_path(case)
    server = emulate(world)
    status = read(server, world, tmp_path, monkeypatch, config=config_for(expected, tmp_path))
    rest = [entry["path"] for entry in server.log() if entry.get("endpoint") == "rest"]
    assert status == 0
    # REST is asked only for permissions, each login once: every decider when GraphQL may not
    # list collaborators, else the deciders GraphQL's list left out.
    assert all(path.endswith("/permission") for path in rest) and len(rest) == len(set(rest))
    if load(world).get("collaborators_via_graphql") == "forbidden":
        assert rest
    written = load(tmp_path / "corrections.json")
    assert written["window"] == expected["window"]
    # The window's corrections as counted by hand; the horizon past it adds older ones only. The
    # labels each analysis kept (the second look's vote) are counted where a world says them.
    horizon = set(written["horizon"])
    assert not horizon & set(expected["window"])
    mine = [c for c in written["corrections"] if c["number"] not in horizon]
    hands = {c["number"]: c for c in expected["corrections"]}
    found = [
        {
            key: value
            for key, value in entry.items()
            if key != "labels_kept" or key in hands.get(entry["number"], {})
        }
        for entry in mine
    ]
    assert found == expected_corrections(expected)
    if "kept" in expected:
        # Same keys in the same order (the vocabulary's), same numbers.
        assert list(written["kept"].items()) == list(expected["kept"].items())
    assert written["note"] is None
    assert sorted(p.name for p in (tmp_path / "issues").iterdir()) == sorted(
        f"{n}.md" for n in [*expected["window"], *horizon]
    )


def test_demo_costs_few_round_trips(
    demo_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = len(demo_server.log())
    assert read(demo_server, DEMO, tmp_path, monkeypatch) == 0
    served = demo_server.log()[before:]
    cost = load(tmp_path / "corrections.json")["cost"]
    assert cost["requests"] == len(served)
    assert cost["points"] == sum(entry.get("cost") or 0 for entry in served)
    # Goal of issue 3 for the demo world with max_analyzed = 30: at most 3 requests, 5 points.
    # GitHub refuses a workflow token the collaborator list (the emulator's default), so beside
    # them REST is asked once for each person whose permission decides a rule or who labelled or
    # closed a window issue: the 9 of the demo.
    graphql = [e for e in served if e.get("endpoint", "graphql") == "graphql"]
    rest = [e["path"].rsplit("/", 2)[-2] for e in served if e.get("endpoint") == "rest"]
    assert len(graphql) <= 3
    # dmitri decides a duplicate notice on an issue of the horizon past the window (issue 31).
    assert sorted(rest) == [
        "dmitri", "juno", "lena-dev", "mara", "piet", "sol", "theo", "tomasz", "wren", "zoe-b"
    ]  # fmt: skip
    assert cost["points"] <= 5


def test_demo_with_the_collaborator_list(
    demo_server: Any, emulate: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A token that may list collaborators: GraphQL answers the likely 👎 (mara among them), REST
    only the deciders (asked beside the details round: the list leaves out nested teams) and the
    👎 of people seen nowhere else; the same corrections as on the refused path."""
    server = emulate(DEMO, collaborators_via_graphql="allowed")
    assert read(server, DEMO, tmp_path / "allowed", monkeypatch) == 0
    assert read(demo_server, DEMO, tmp_path / "refused", monkeypatch) == 0
    graphql = [e for e in server.log() if e.get("endpoint", "graphql") == "graphql"]
    rest = [e["path"].rsplit("/", 2)[-2] for e in server.log() if e.get("endpoint") == "rest"]
    assert len(graphql) <= 3
    assert sorted(rest) == ["dmitri", "juno", "lena-dev", "piet", "sol", "theo", "tomasz", "wren", "zoe-b"]
    allowed, refused = (load(tmp_path / path / "corrections.json") for path in ("allowed", "refused"))
    assert allowed["corrections"] == refused["corrections"] and allowed["note"] is None


def test_max_analyzed_zero_makes_no_call(
    demo_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = len(demo_server.log())
    assert read(demo_server, DEMO, tmp_path, monkeypatch, "--max-analyzed", "0") == 0
    assert len(demo_server.log()) == before
    written = load(tmp_path / "corrections.json")
    assert written["window"] == [] and written["corrections"] == []
    assert "off" in (tmp_path / "corrections.md").read_text(encoding="utf-8")


def test_demo_files_snapshot(
    demo_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, snapshot: SnapshotAssertion
) -> None:
    assert read(demo_server, DEMO, tmp_path, monkeypatch, "--paths", "src/demo/sync/engine.py") == 0
    assert (tmp_path / "corrections.md").read_text(encoding="utf-8") == snapshot(name="corrections.md")
    written = load(tmp_path / "corrections.json")
    written["cost"] = "(measured)"
    assert json.dumps(written, ensure_ascii=False, indent=2) + "\n" == snapshot(name="corrections.json")
    assert (tmp_path / "learnings.md").read_text(encoding="utf-8") == snapshot(name="learnings.md")
    # #37: a corrected issue with a timeline longer than an issue file shows (the cut is visible).
    issue_text = (tmp_path / "issues" / "37.md").read_text(encoding="utf-8")
    assert issue_text == snapshot(name="issue-37.md")


def test_every_marker_that_does_not_parse_is_warned_about(
    demo_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """#14's only marker does not parse, so #14 is never in the window: it is named all the same."""
    assert read(demo_server, DEMO, tmp_path, monkeypatch) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "does not parse" in line]
    assert 14 not in load(tmp_path / "corrections.json")["window"]
    assert [line.split(": ")[2] for line in warnings] == ["#52 comment 2400001856", "#14 comment 2400000197"]
