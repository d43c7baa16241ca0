"""`learnings sync` end to end: the real client over HTTP against the emulator, state read back.

Every test checks that the default branch did not move and its store did not change.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from assistant.config import Config, LearningsConfig
from emulator import Server
from learnings.cli import main
from learnings.commands import pacing
from learnings.store.jsonl import parse_jsonl
from learnings.sync.run import SyncError
from tests.emulation import Emulators
from tests.writepath.conftest import OLD_LEARNING, build_world, sync_once, writes

BRANCH = "assistant/learnings"
STORE = ".github/assistant/learnings.jsonl"
Sync = Callable[..., Any]
MUTATIONS = {
    "CreateRef",
    "UpdateRef",
    "DeleteRef",
    "CreateCommitOnBranch",
    "CreatePullRequest",
    "UpdatePullRequest",
}

FIRST = {
    ("issue", 10, 2700001001, "bob"),
    ("issue", 10, 2700001005, "alice"),
    ("pull_request", 20, 2700002002, "alice"),
    ("issue", 11, 2700001101, "bob"),
}


def sources(learnings: Any) -> set[tuple[str, int, int, str]]:
    """(thread kind, number, comment, accepted by) of learnings with a source."""
    found = set()
    for learning in learnings:
        source = learning.source
        if source.comment is None:
            continue
        kind = "issue" if source.issue is not None else "pull_request"
        found.add((kind, source.issue or source.pull_request, source.comment, source.accepted_by))
    return found


def branch_store(server: Server) -> Any:
    return parse_jsonl(server.state()["files"][BRANCH][STORE], source="branch").learnings


def assert_main_unchanged(server: Server, initial: dict[str, Any]) -> None:
    state = server.state()
    assert state["heads"]["main"] == initial["heads"]["main"]
    assert state["files"]["main"] == initial["files"]["main"]


def sync_pulls(server: Server) -> list[dict[str, Any]]:
    return [pull for pull in server.state()["pull_requests"] if pull.get("head") == BRANCH]


@pytest.mark.parametrize("permissions", ["graphql", "rest"])
def test_first_sync_records_pushers_commands_and_accepted_proposals(
    permissions: str,
    server: Server,
    sync: Sync,
    time_machine: Any,
    snapshot: SnapshotAssertion,
) -> None:
    if permissions == "rest":
        server.store.file = server.store.file.model_copy(update={"collaborators_via_graphql": "forbidden"})
    initial = server.state()
    result = sync()

    assert result.outcome == "recorded"
    assert sources(result.recorded) == FIRST
    texts = {learning.text for learning in result.recorded}
    assert not any("dave" in text or "triag" in text or "no command" in text for text in texts)
    assert not any("security review" in text or "bots" in text or "mkdocs" in text for text in texts)
    suppression = next(learning for learning in result.recorded if learning.kind == "suppression")
    assert (suppression.category, suppression.paths) == ("sql-injection", ("src/db/raw.py",))
    notes = "\n".join(result.notes)
    assert "comment 2700001002: `remember` by @dave ignored: READ permission" in notes
    assert "comment 2700001003: `remember` by @carol ignored: TRIAGE permission" in notes
    assert "comment 2700001102: proposal rejected by @bob" in notes
    assert "comment 2700001103: proposal waits for a 👍 from a pusher" in notes
    assert "comment 2700001007: commands ignored, the author is not a person" in notes
    assert "comment 2700002005: `ignore-rule" in notes  # the finding marker in carol's comment is forged
    assert "2700001104" not in notes  # a proposal marker in dave's comment is not even a proposal

    assert writes(result) == ("CreateRef", "CreateCommitOnBranch", "CreatePullRequest")
    assert time_machine.sleeps == [1.0] * (len(result.mutations) - 1)
    assert_main_unchanged(server, initial)
    stored = branch_store(server)
    assert [learning.id for learning in stored] == ["l_0ld1", *(learning.id for learning in result.recorded)]
    assert sources(stored) == FIRST | {("issue", 12, 2700000900, "alice")}
    (pull,) = sync_pulls(server)
    assert (pull["base"], pull["number"]) == ("main", result.pull_number)
    commit = server.store.commits[server.state()["heads"][BRANCH]]
    assert commit.parent == initial["heads"]["main"]
    if permissions == "rest":
        assert any(entry["endpoint"] == "rest" and "/permission" in entry["path"] for entry in server.log())
    assert pull["body"] == snapshot


def test_implicit_capture_false_records_no_proposal(server: Server, sync: Sync) -> None:
    """`[learnings] implicit_capture = false`: the pushers' commands only, proposals not even read."""
    config = Config(learnings=LearningsConfig(implicit_capture=False))
    result = sync(config=config)

    assert sources(result.recorded) == {source for source in FIRST if source[:2] != ("issue", 11)}
    assert "3 learning proposal(s) not recorded: [learnings] implicit_capture = false" in result.notes
    assert not any("proposal rejected" in note or "waits for a 👍" in note for note in result.notes)
    assert not any(entry.get("operation") == "ProposalReactions" for entry in server.log())


def test_second_sync_adds_only_what_is_new(server: Server, kit: Any, sync: Sync) -> None:
    initial = server.state()
    first = sync()
    first_head = server.state()["heads"][BRANCH]
    issue = kit.graphql(
        '{ repository(owner: "octo", name: "demo") { issue(number: 10) { id } } }', {}, "bob-token"
    )
    issue_id = issue["data"]["repository"]["issue"]["id"]
    add = "mutation($s: ID!, $b: String!) { addComment(input: {subjectId: $s, body: $b}) { commentEdge { node { fullDatabaseId } } } }"
    new = kit.graphql(add, {"s": issue_id, "b": "/assistant remember run ruff before pushing"}, "bob-token")
    new_id = int(new["data"]["addComment"]["commentEdge"]["node"]["fullDatabaseId"])
    kit.graphql(
        add,
        {"s": issue_id, "b": "/assistant remember integration tests need TEST_DB_URL --paths test/**"},
        "bob-token",
    )
    react = "mutation($s: ID!) { addReaction(input: {subjectId: $s, content: THUMBS_UP}) { reaction { content } } }"
    kit.graphql(react, {"s": kit.comment_node_id(11, 2700001103)}, "alice-token")

    second = sync()

    assert second.outcome == "recorded"
    assert sources(second.recorded) == {("issue", 10, new_id, "bob"), ("issue", 11, 2700001103, "alice")}
    assert second.pull_number == first.pull_number
    assert writes(second) == ("CreateCommitOnBranch", "UpdatePullRequest")
    head = server.state()["heads"][BRANCH]
    assert server.store.commits[head].parent == first_head
    assert len(sync_pulls(server)) == 1
    stored = branch_store(server)
    assert len(stored) == 1 + 4 + 2
    assert sources(stored) == FIRST | sources(second.recorded) | {("issue", 12, 2700000900, "alice")}
    body = sync_pulls(server)[0]["body"]
    assert body.count("accepted by `@") == 6 and "run ruff before pushing" in body

    third = sync()
    assert (third.outcome, third.mutations) == ("nothing-new", ())
    assert server.state()["heads"][BRANCH] == head
    assert_main_unchanged(server, initial)


def test_stale_head_is_read_again_and_retried_once(
    server: Server, kit: Any, sync: Sync, time_machine: Any
) -> None:
    initial = server.state()
    theirs: dict[str, str] = {}
    concurrent = {
        **kit.old_learning,
        "id": "l_con1",
        "text": "Use pytest -x!",
        "source": {"issue": 10, "comment": 2700001005, "accepted_by": "alice"},
    }

    def another_sync_writes(index: int) -> None:
        if index == 0:  # between createRef and the commit
            text = json.dumps(kit.old_learning) + "\n" + json.dumps(concurrent) + "\n"
            theirs["oid"] = kit.commit_as_someone(BRANCH, STORE, text)

    time_machine.before_sleep = another_sync_writes
    result = sync()

    assert writes(result) == (
        "CreateRef",
        "CreateCommitOnBranch",
        "CreateCommitOnBranch",
        "CreatePullRequest",
    )
    assert sources(result.recorded) == FIRST - {("issue", 10, 2700001005, "alice")}
    head = server.state()["heads"][BRANCH]
    assert server.store.commits[head].parent == theirs["oid"]
    assert server.store.commits[theirs["oid"]].parent == initial["heads"]["main"]
    stored = branch_store(server)
    assert [learning.id for learning in stored][:2] == ["l_0ld1", "l_con1"]
    assert len(stored) == 2 + 3
    assert_main_unchanged(server, initial)


def test_stale_twice_fails_and_leaves_no_branch(
    server: Server, kit: Any, sync: Sync, time_machine: Any
) -> None:
    initial = server.state()

    def another_sync_keeps_writing(index: int) -> None:
        if index < 2 and BRANCH in server.state()["heads"]:
            kit.commit_as_someone(BRANCH, "other.txt", f"write {index}\n")

    time_machine.before_sleep = another_sync_keeps_writing
    with pytest.raises(SyncError, match="STALE_DATA"):
        sync()
    assert BRANCH not in server.state()["heads"]
    assert sync_pulls(server) == []
    assert_main_unchanged(server, initial)


def test_mutation_cap_stops_the_run_and_cleans_up(server: Server, sync: Sync) -> None:
    initial = server.state()
    with pytest.raises(SyncError, match="MUTATION_CAP"):
        sync(max_mutations=2)
    assert server.state()["heads"] == initial["heads"]
    assert sync_pulls(server) == []


@pytest.mark.parametrize("leftover", [False, True])
def test_forbidden_pull_requests_write_nothing(
    leftover: bool,
    kit: Any,
    time_machine: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = kit.server
    server.store.file = server.store.file.model_copy(update={"pull_requests_allowed": False})
    if leftover:  # a branch left from a merged sync pull request
        server.store.branches[BRANCH] = server.store.branches["main"]
        kit.commit_as_someone(BRANCH, STORE, "merged long ago\n")
    initial = server.state()
    monkeypatch.setenv("GITHUB_TOKEN", "sync-token")
    monkeypatch.setattr(pacing, "PACING", pacing.Pacing(time_machine.sleep, time_machine.clock))

    status = main(["sync", "--repo", "octo/demo", "--api-url", server.url])

    out, err = capsys.readouterr()
    assert status == 1 and out == ""
    assert err.splitlines() == [
        "learnings: sync: octo/demo does not allow GitHub Actions to create pull requests "
        "(Settings > Actions > General > Workflow permissions); nothing was written"
    ]
    assert server.state()["heads"] == initial["heads"]
    assert server.state()["files"] == initial["files"]
    assert sync_pulls(server) == []
    mutations = [entry["operation"] for entry in server.log() if entry["operation"] in MUTATIONS]
    undo = "UpdateRef" if leftover else "DeleteRef"
    first = ["UpdateRef"] if leftover else ["CreateRef"]
    assert mutations == [*first, "CreateCommitOnBranch", "CreatePullRequest", undo]


def test_cli_sync_prints_the_pull_request_then_nothing_new(
    server: Server, time_machine: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "sync-token")
    monkeypatch.setattr(pacing, "PACING", pacing.Pacing(time_machine.sleep, time_machine.clock))
    assert main(["sync", "--repo", "octo/demo", "--api-url", server.url]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith(
        "recorded 4 learnings in pull request #21: https://github.com/octo/demo/pull/21"
    )
    assert "  l_" in lines[1] and "accepted by @" in lines[1]
    assert "learnings: sync: note: issue #10, comment 2700001002" in err
    assert re.fullmatch(r"cost: \d+ points? of 200, \d+ requests", lines[-1])
    assert main(["sync", "--repo", "octo/demo", "--api-url", server.url]) == 0
    assert re.fullmatch(
        r"nothing new to record \(\d+ points? of 200, \d+ requests\)\n", capsys.readouterr().out
    )
    monkeypatch.delenv("GITHUB_TOKEN")
    assert (
        main(["sync", "--repo", "octo/demo", "--api-url", server.url]) == 4
    )  # gh's "authentication required"
    assert capsys.readouterr().err == (
        "learnings: no token: set GITHUB_TOKEN (or GH_TOKEN, as for gh) in the environment, "
        "or log in with gh (`gh auth login`)\n"
    )


def test_a_store_past_githubs_cut_is_never_rewritten(time_machine: Any, emulate: Emulators) -> None:
    """GitHub gives 512,000 bytes of a file: a sync that rewrote a cut store would lose the rest."""
    world = build_world()
    store = "".join(json.dumps({**OLD_LEARNING, "id": f"l_{i:04x}"}) + "\n" for i in range(3_000))
    assert len(store.encode()) > 512_000
    world["files"]["main"][STORE] = store
    server = emulate(world)
    initial = server.state()
    with pytest.raises(SyncError, match="too large to read through GitHub"):
        sync_once(server, time_machine)
    assert server.state()["heads"] == initial["heads"]
    assert sync_pulls(server) == []


@pytest.fixture
def deep_store_line(world: dict[str, Any]) -> dict[str, Any]:
    """The default branch's store with a first line of 1,000 `[`."""
    files = world["files"]["main"]
    files[STORE] = "[" * 1_000 + "\n" + files[STORE]
    return world


def test_a_store_line_nested_too_deeply_is_skipped_with_a_note(
    deep_store_line: dict[str, Any], server: Server, sync: Sync
) -> None:
    """1,000 `[` on a line of the default branch's store made `learnings sync` exit 1 with a traceback."""
    result = sync()
    assert result.outcome == "recorded"
    assert f"main:{STORE}:1: nested too deeply, skipped" in result.notes
    assert sources(result.recorded) == FIRST


@pytest.mark.parametrize("option", ["--budget", "--max-pages"])
def test_a_budget_or_page_cap_below_one_is_a_usage_error(
    option: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "sync-token")
    with pytest.raises(SystemExit) as exit_info:
        main(["sync", "--repo", "octo/demo", option, "0"])
    assert exit_info.value.code == 2
    assert "must be 1 or more" in capsys.readouterr().err
