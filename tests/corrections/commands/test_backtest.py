"""`corrections backtest`: the history of a repository whose right labels are known, replayed through
the stand-in models with and without the context, from one read, resumable from its cache."""

from __future__ import annotations

import json
import re
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from bench.loop_world import LABELS_FILE, MAINTAINER, arrivals, history_world
from bench.worlds import WorldSpec, generate
from corrections.commands.backtest_cache import PERMISSIONS_KEPT, AnswerCache, PermissionCache
from corrections.commands.backtest_model import run_model
from corrections.commands.cli import main
from corrections.quality.backtest_run import ModelFailed
from corrections.quality.backtest_score import parse_answer
from corrections.render.model_answer import AnswerError
from corrections.render.prompt_budget import ENGINE_INPUT_TOKENS
from corrections.render.tokens import count_tokens
from tests.emulation import Emulators
from tests.kit.world import iso

ROOT = Path(__file__).resolve().parents[3]
# The following stand-in on the last 12 analyses, two windows.
SWEEP = (
    "--model",
    f"{sys.executable} -m bench.stand_ins following",
    "--last",
    "12",
    "--max-analyzed",
    "10,30",
)
KEYS = {
    "precision",
    "recall",
    "false_adds",
    "false_removes",
    "repeats",
    "objected_duplicates",
    "recurrences",
    "unparsed",
    "prompt_tokens",
}


def _model(kind: str) -> str:
    return f"{sys.executable} -m bench.stand_ins {kind}"


@pytest.fixture
def history(emulate: Emulators) -> str:
    """Four weeks of six issues, analysed by the blind stand-in and corrected by the maintainer,
    whose token the backtest runs with (as it is meant to be run: it may list collaborators)."""
    return emulate(history_world(arrivals(4, 6, 7)), tokens={"backtest-token": MAINTAINER}).url


def _backtest(url: str, state: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    monkeypatch.setenv("GITHUB_TOKEN", "backtest-token")
    monkeypatch.chdir(ROOT)  # the stand-ins are run as `python -m bench.stand_ins`
    argv = ["backtest", "--repo", "octo/loop", "--api-url", url, "--state-dir", str(state), *extra]
    return main(argv)


def test_the_json_scores_both_runs_and_the_context_helps_a_model_that_follows_it(
    history: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status = _backtest(history, tmp_path, monkeypatch, *SWEEP, "--json")
    assert status == 0
    captured = capsys.readouterr()
    document: dict[str, Any] = json.loads(captured.out)
    assert set(document) == {"v", "repository", "analyses", "runs", "cost"}
    assert (document["v"], document["repository"], document["analyses"]) == (1, "octo/loop", 12)
    assert [run["max_analyzed"] for run in document["runs"]] == [10, 30]
    for run in document["runs"]:
        told, blind = run["with_context"], run["without_context"]
        assert set(told) == KEYS and set(blind) == KEYS
        # A model that follows its context: the second look changes none of its figures.
        assert run["with_second_look"] == told
        # The last 12 issues' mistakes were all corrected on earlier ones of the window: followed.
        assert (told["false_adds"], told["false_removes"], told["repeats"], told["objected_duplicates"]) == (
            0,
            0,
            0,
            0,
        )
        assert blind["false_adds"] > 0 and blind["false_removes"] > 0 and blind["repeats"] > 0
        assert blind["objected_duplicates"] == 2  # the two flaky issues among the last 12
        # Followed, nothing recurs; the blind run's mistakes recur from similar issues that the
        # context of this window gave (it did not reach the model), none from one it did not.
        assert told["recurrences"] == {"given": 0, "not_given": 0} and told["unparsed"] == 0
        assert blind["recurrences"]["given"] == blind["repeats"] > 0
        assert told["prompt_tokens"] > blind["prompt_tokens"] > 0
    # One read and a request for each base file's history (labels.md, the learnings), whatever the
    # number of analyses.
    assert document["cost"]["requests"] <= 5 and document["cost"]["points"] <= 5
    progress = [line for line in captured.err.splitlines() if line.startswith("corrections: backtest ")]
    assert len(progress) == 12 and progress[0].startswith("corrections: backtest 1/12 #24: ")


def test_a_blind_model_gains_nothing_from_the_context(
    history: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        _backtest(history, tmp_path, monkeypatch, "--model", _model("blind"), "--last", "12", "--json") == 0
    )
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    told, blind = run["with_context"], run["without_context"]
    assert {k: v for k, v in told.items() if k != "prompt_tokens"} == {
        k: v for k, v in blind.items() if k != "prompt_tokens"
    }
    assert told["repeats"] > 0
    # The second look catches what the blind model ignored: fewer objected notices and repeats.
    looked = run["with_second_look"]
    assert looked["objected_duplicates"] < told["objected_duplicates"]
    assert looked["repeats"] < told["repeats"]


def test_a_backtest_run_again_pays_only_for_the_answers_it_did_not_get(
    history: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    model = _model("following")
    assert _backtest(history, tmp_path, monkeypatch, "--model", model, "--last", "3") == 0
    assert "6 calls, 0 answers from the cache" in capsys.readouterr().err
    # As after an interruption: the three done are not asked again.
    assert _backtest(history, tmp_path, monkeypatch, "--model", model, "--last", "5") == 0
    assert "4 calls, 6 answers from the cache" in capsys.readouterr().err
    assert len((tmp_path / "backtest-answers.jsonl").read_text(encoding="utf-8").splitlines()) == 10


def test_a_backtest_run_again_reuses_the_permissions_it_read(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bench's world, 👎 from people outside the collaborator list too: each person whose
    permission decides a rule is one REST look-up (GraphQL's list refused, as for a workflow
    token); run again, the backtest asks none of them and decides the same."""
    world = generate(WorldSpec(issues=300, seed=7, outsider_thumbs_down=True))
    url = emulate(world).url
    argv = ["backtest", "--repo", "octo/bench", "--api-url", url, "--state-dir", str(tmp_path)]
    argv += ["--model", _model("following"), "--last", "10", "--json"]

    def backtest() -> tuple[dict[str, Any], str]:
        monkeypatch.setenv("GITHUB_TOKEN", "backtest-token")
        monkeypatch.chdir(ROOT)
        assert main(argv) == 0
        out, err = capsys.readouterr()
        return json.loads(out), err

    first, _ = backtest()
    assert first["cost"]["requests"] > 10  # the GraphQL reads and one look-up per person
    again, err = backtest()
    assert again["cost"]["requests"] <= 10 and again["cost"]["points"] <= 10
    assert again["cost"]["requests"] <= first["cost"]["requests"] - 7
    assert again["runs"] == first["runs"]
    assert re.search(r"permissions of \d+ people from .*backtest-permissions\.json", err)


def test_a_first_backtest_with_a_maintainers_token_lists_the_collaborators_once(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run as it is meant to be, by a maintainer (a token that may push), a first backtest asks
    REST's collaborator list once instead of a look-up per person: at most 10 requests and 10
    points. A workflow's token (the world's default: the Bot github-actions) gets 200 from the list
    with the directly added collaborators only, no team grant (actions/runner#2519,
    pullpreview/action#96): the maintainers granted through teams are absent from it, so each
    absent person is asked one by one and the scores are the same. Before, a complete list made
    an absent login READ: their corrections were dropped and the scores differed."""
    world = generate(WorldSpec(issues=300, seed=7, outsider_thumbs_down=True))
    world.pop("viewer")  # the default token is a workflow's GITHUB_TOKEN
    teams = {login: world["permissions"].pop(login) for login in ("bob", "mia", "noor", "carol")}
    url = emulate(world | {"team_access": teams, "tokens": {"maintainer-token": "alice"}}).url
    monkeypatch.chdir(ROOT)

    def backtest(token: str, state: Path) -> dict[str, Any]:
        monkeypatch.setenv("GITHUB_TOKEN", token)
        argv = ["backtest", "--repo", "octo/bench", "--api-url", url, "--state-dir", str(state)]
        argv += ["--assistant-login", "triage-assistant"]  # github-actions' token would read its own
        assert main([*argv, "--model", _model("following"), "--last", "10", "--json"]) == 0
        document: dict[str, Any] = json.loads(capsys.readouterr().out)
        return document

    maintainer = backtest("maintainer-token", tmp_path / "maintainer")
    assert maintainer["cost"]["requests"] <= 10 and maintainer["cost"]["points"] <= 10
    workflow = backtest("workflow-token", tmp_path / "workflow")
    assert workflow["cost"]["requests"] >= maintainer["cost"]["requests"] + 4  # a look-up per person
    assert workflow["runs"] == maintainer["runs"]


def test_the_permissions_kept_are_those_read_within_a_day_of_the_same_repository(tmp_path: Path) -> None:
    path = tmp_path / "backtest-permissions.json"
    now = datetime(2026, 11, 2, 10, tzinfo=UTC)
    cache = PermissionCache.load(path, "octo/a")
    cache.save({"alice": "WRITE", "bob": "READ"}, {}, now - PERMISSIONS_KEPT - timedelta(seconds=1))
    PermissionCache.load(path, "octo/b").save({"alice": "ADMIN"}, {}, now)
    assert PermissionCache.load(path, "octo/a").known(now) == {}  # read more than a day ago
    assert PermissionCache.load(path, "octo/b").known(now) == {"alice": "ADMIN"}
    again = PermissionCache.load(path, "octo/b")
    # Reused, it keeps the moment it was read: a day after that it is asked again.
    again.save({"alice": "ADMIN", "carol": "TRIAGE"}, again.known(now), now + timedelta(hours=20))
    later = PermissionCache.load(path, "octo/b").known(now + timedelta(hours=25))
    assert later == {"carol": "TRIAGE"}
    path.write_text('{"v": 1, "repositories": {"octo/b": {"x": {"permission": "OWNER"}}}}', encoding="utf-8")
    assert PermissionCache.load(path, "octo/b").known(now) == {}
    path.write_text("{cut by an interruption", encoding="utf-8")
    assert PermissionCache.load(path, "octo/b").known(now) == {}


def test_the_table(
    history: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    snapshot: SnapshotAssertion,
) -> None:
    status = _backtest(history, tmp_path, monkeypatch, *SWEEP)
    assert status == 0
    table = capsys.readouterr().out.replace(sys.executable, "python")
    assert table == snapshot(name="backtest-table.md")


def test_a_failing_model_is_not_cached_and_not_scored(tmp_path: Path) -> None:
    with pytest.raises(ModelFailed, match="exited with status 3: no quota"):
        run_model(
            [sys.executable, "-c", "import sys; print('no quota', file=sys.stderr); sys.exit(3)"], "p", 30
        )
    with pytest.raises(ModelFailed, match=r"did not answer within 0\.2 s"):
        run_model([sys.executable, "-c", "import time; time.sleep(5)"], "p", 0.2)
    with pytest.raises(ModelFailed, match="not found"):
        run_model(["/no/such/model"], "p", 30)
    # A wrapper whose child outlives the timeout: the whole process group is killed. (A child the
    # wrapper started within the 0.5 s would have written 1 s later: it is waited for 2 s.)
    late = tmp_path / "late"
    child = f"import time; time.sleep(1); open({str(late)!r}, 'w').write('answer')"
    wrapper = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}])"
    with pytest.raises(ModelFailed, match="did not answer"):
        run_model([sys.executable, "-c", wrapper], "p", 0.5)
    time.sleep(2)
    assert not late.exists()
    cache = AnswerCache.load(tmp_path / "c.jsonl")
    cache.add("k", '{"labels": []}')
    cache.add("old", "no analysis here")  # as an older version kept it: asked again
    (tmp_path / "c.jsonl").open("a").write('{"key": "cut')  # a write cut short
    assert AnswerCache.load(tmp_path / "c.jsonl").answers == {"k": '{"labels": []}'}


def test_an_answer_that_does_not_parse_is_counted_apart_and_not_cached(
    history: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    model = f"{sys.executable} -c \"print('I cannot decide.')\""
    for _ in range(2):  # run again: asked again, as nothing was kept
        assert _backtest(history, tmp_path, monkeypatch, "--model", model, "--last", "2", "--json") == 0
        captured = capsys.readouterr()
        (run,) = json.loads(captured.out)["runs"]
        assert (run["with_context"]["unparsed"], run["without_context"]["unparsed"]) == (2, 2)
        assert "4 calls, 0 answers from the cache, 4 unparsed" in captured.err
    cache = tmp_path / "backtest-answers.jsonl"
    assert not cache.exists() or cache.read_text(encoding="utf-8") == ""


def test_the_answer_is_the_marker_or_its_json() -> None:
    marker = '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ["bug"], "duplicate_of": 4} -->'
    assert parse_answer(f"Text.\n\n{marker}\n", 9).labels == ("bug",)
    fenced = parse_answer('```json\n{"labels": ["docs"], "duplicate_of": null}\n```', 9)
    assert (fenced.labels, fenced.duplicate_of) == (("docs",), None)
    assert parse_answer('{"labels": [], "duplicate_of": true}', 9).duplicate_of is None
    for text in ["no", "[1]", '{"labels": "bug"} and more']:
        with pytest.raises(AnswerError):
            parse_answer(text, 9)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--model", " "], "--model: the command is empty"),
        (["--model", "x", "--last", "0"], "--last: must be between 1 and 100"),
        (
            ["--model", "x", "--max-analyzed", "10,abc"],
            "--max-analyzed: expected numbers separated by commas",
        ),
        (["--model", "x", "--max-analyzed", "0"], "--max-analyzed: each window must be between 1 and 100"),
    ],
)
def test_usage_errors_are_one_line(
    argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    assert main(["backtest", "--repo", "octo/loop", *argv]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(f"corrections: error: {re.escape(message)}.*\n", err)


def _learning(number: int, text: str, created: datetime, status: str = "active") -> str:
    moment = created.strftime("%Y-%m-%dT%H:%M:%SZ")
    return json.dumps(
        {
            "v": 1,
            "id": f"l_{number:04x}",
            "scope": "repo",
            "kind": "note",
            "text": text,
            "source": {"issue": number},
            "createdAt": moment,
            "updatedAt": moment,
            "status": status,
        }
    )


def test_a_replayed_prompt_holds_no_learning_created_after_its_analysis(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A learning created in the middle of the history is in no prompt of an analysis made before it,
    and in every prompt of one made after it; one created before them all is in every prompt."""
    found = arrivals(4, 6, 7)
    world = history_world(found)
    middle = found[18].at  # the issues #19 to #24 come after it
    store = ".github/assistant/learnings.jsonl"
    world["files"]["main"][store] = (
        _learning(2, "Old lesson: slow sync reports are bugs.", found[0].at - timedelta(days=1))
        + "\n"
        + _learning(19, "New lesson: typo reports are docs.", middle)
        + "\n"
    )
    url = emulate(world, tokens={"backtest-token": MAINTAINER}).url
    prompts = tmp_path / "prompts.jsonl"
    recorder = (
        "import json, sys; p = sys.stdin.read(); "
        f"open({str(prompts)!r}, 'a').write(json.dumps(p) + chr(10)); "
        "print(json.dumps({'labels': [], 'duplicate_of': None}))"
    )
    model = f"{sys.executable} -c {json.dumps(recorder)}"
    assert _backtest(url, tmp_path, monkeypatch, "--model", model, "--last", "12", "--json") == 0
    capsys.readouterr()
    seen = [json.loads(line) for line in prompts.read_text(encoding="utf-8").splitlines()]
    with_context = [p for p in seen if "Old lesson" in p]
    numbers = [
        int(m.group(1))
        for p in with_context
        if (m := re.search(r"## The issue you are analysing: #(\d+)", p))
    ]
    assert sorted(numbers) == list(range(13, 25))
    for prompt, number in zip(with_context, numbers, strict=True):
        assert ("New lesson" in prompt) is (number >= 19), number


def test_a_replayed_prompt_has_labels_md_and_the_learnings_as_they_were_at_its_analysis(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In the middle of the history one commit on the base branch added `docs` to labels.md and
    reworded a learning: the prompts of the analyses made before it offer no `docs` and have the
    old wording, those after it have both changes; one request a file (a point each) reads its
    history."""
    found = arrivals(4, 6, 7)
    world = history_world(found)
    middle = found[18].at  # the issues #19 to #24 come after it
    today = world["files"].pop("main")
    before = today[LABELS_FILE].replace("- `docs`: the documentation\n", "")
    assert before != today[LABELS_FILE]
    store = ".github/assistant/learnings.jsonl"
    old = _learning(2, "Old wording: slow sync reports are bugs.", found[0].at - timedelta(days=1))
    new = old.replace("Old wording", "New wording")
    world["commits"] = {
        "main": [
            {
                "at": iso(found[0].at - timedelta(days=7)),
                "files": {**today, LABELS_FILE: before, store: old + "\n"},
            },
            {
                "at": iso(middle - timedelta(minutes=1)),
                "files": {**today, store: new + "\n"},
                "message": "docs",
            },
        ]
    }
    server = emulate(world, tokens={"backtest-token": MAINTAINER})
    url = server.url
    prompts = tmp_path / "prompts.jsonl"
    recorder = (
        "import json, sys; p = sys.stdin.read(); "
        f"open({str(prompts)!r}, 'a').write(json.dumps(p) + chr(10)); "
        "print(json.dumps({'labels': ['docs'], 'duplicate_of': None}))"
    )
    model = f"{sys.executable} -c {json.dumps(recorder)}"
    assert _backtest(url, tmp_path, monkeypatch, "--model", model, "--last", "12", "--json") == 0
    captured = capsys.readouterr()
    for path in (LABELS_FILE, store):
        assert (
            f"{path} as of each analysis, from its history on the base branch (2 versions, 1 request)"
            in captured.err
        )
    seen = [json.loads(line) for line in prompts.read_text(encoding="utf-8").splitlines()]
    numbers = [
        int(m.group(1)) for p in seen if (m := re.search(r"## The issue you are analysing: #(\d+)", p))
    ]
    assert sorted(set(numbers)) == list(range(13, 25)) and len(numbers) == len(seen) == 24
    for prompt, number in zip(seen, numbers, strict=True):
        (offered,) = [line for line in prompt.splitlines() if line.startswith("Choose labels only from:")]
        assert ("docs" in offered.removesuffix(".").split(": ", 1)[1].split(", ")) is (number >= 19), number
    with_context = [(p, n) for p, n in zip(seen, numbers, strict=True) if "wording: slow sync" in p]
    assert len(with_context) == 12  # the runs without the context have no learning
    for prompt, number in with_context:
        assert ("New wording" in prompt, "Old wording" in prompt) == (number >= 19, number < 19), number
    # One request for the history, counted in the cost.
    asked = [entry for entry in server.log() if entry.get("operation") == "FileHistory"]
    assert len(asked) == 2
    assert json.loads(captured.out)["cost"]["points"] == sum(e["cost"] for e in server.log() if "cost" in e)


def test_the_assistant_login_is_an_option_as_in_the_other_commands(
    history: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--model", _model("blind"), "--last", "3", "--json"]
    assert _backtest(history, tmp_path, monkeypatch, *argv, "--assistant-login", "triage-assistant") == 0
    assert json.loads(capsys.readouterr().out)["analyses"] == 3
    # Another account posted no analysis here: nothing to replay.
    assert _backtest(history, tmp_path, monkeypatch, *argv, "--assistant-login", "someone-else") == 0
    assert json.loads(capsys.readouterr().out)["analyses"] == 0


def test_the_replayed_prompt_is_the_production_prompt(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The adopter's instructions first (`--instructions`), then what `corrections prompt --event`
    assembles: the new issue cleaned and fenced, inside the budget, however long its body."""
    world = history_world(arrivals(4, 6, 7))
    last = world["issues"][-1]
    hidden = "\u200b\u202e\u2066\ufeff"
    last["body"] = f"Seen on 2.1.{hidden} " + "the sync stops again and again " * 3_000
    url = emulate(world, tokens={"backtest-token": MAINTAINER}).url
    instructions = tmp_path / "instructions.md"
    instructions.write_text("You triage the issues of octo/loop, a sync tool.\n", encoding="utf-8")
    prompts = tmp_path / "prompts.jsonl"
    recorder = (
        "import json, sys; p = sys.stdin.read(); "
        f"open({str(prompts)!r}, 'a').write(json.dumps(p) + chr(10)); "
        "print(json.dumps({'labels': [], 'duplicate_of': None}))"
    )
    model = f"{sys.executable} -c {json.dumps(recorder)}"
    argv = ["--model", model, "--last", "1", "--json", "--instructions", str(instructions)]
    assert _backtest(url, tmp_path, monkeypatch, *argv) == 0
    capsys.readouterr()
    seen = [json.loads(line) for line in prompts.read_text(encoding="utf-8").splitlines()]
    assert len(seen) == 2  # with the context and without it
    for prompt in seen:
        assert prompt.startswith("You triage the issues of octo/loop, a sync tool.\n\nAnswer with one JSON")
        assert f"## The issue you are analysing: #{last['number']}" in prompt
        assert not any(mark in prompt for mark in hidden)
        # Within the engine's input: the reader's budget, the new issue's bound, the instructions.
        assert count_tokens(prompt) <= ENGINE_INPUT_TOKENS


DEEP = 200_000  # levels of nesting: past any parser's stack


@pytest.mark.parametrize(
    "answer",
    [
        '{"labels": ' + "[" * DEEP + "]" * DEEP + "}",  # its JSON
        '<!-- assistant:analysis {"v": 1, "kind": "first", "labels": ' + "[" * DEEP + "]" * DEEP + "} -->",
    ],
    ids=["json", "marker"],
)
def test_a_deeply_nested_answer_is_counted_apart_not_cached_and_asked_again(
    history: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answer: str,
) -> None:
    written = tmp_path / "answer.txt"
    written.write_text(answer, encoding="utf-8")
    model = f'{sys.executable} -c "import sys; sys.stdout.write(open(sys.argv[1]).read())" {written}'
    for _ in range(2):  # no crash, nothing kept: run again, it is asked again
        assert _backtest(history, tmp_path, monkeypatch, "--model", model, "--last", "1", "--json") == 0
        captured = capsys.readouterr()
        (run,) = json.loads(captured.out)["runs"]
        assert (run["with_context"]["unparsed"], run["without_context"]["unparsed"]) == (1, 1)
        assert "2 calls, 0 answers from the cache, 2 unparsed" in captured.err
        assert "recursion" in captured.err  # unparsed for its nesting, said (the JSON or the marker's words)
    cache = tmp_path / "backtest-answers.jsonl"
    assert not cache.exists() or cache.read_text(encoding="utf-8") == ""
