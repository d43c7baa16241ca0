"""The Claude and OpenAI-compatible examples, their own steps run in bash with the engine stood in.

With tests/test_examples.py's runner, issue and answer: gh and curl stood in for, the reader's real
`corrections` as the action's `bin`, a hostile new issue and a hostile model answer. The new issue
must reach the prompt cleaned and fenced, what would be posted must be as clean as first-analysis.yml
posts it, and the job that runs the model holds no token that can write.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.test_examples import (
    ROOT,
    _hostile_answer,
    _load,
    _run_step,
    _steps,
    assert_hostile_answer_cleaned,
    assert_hostile_answer_warned,
    assert_hostile_issue_cleaned_and_fenced,
    runner_env,
)

CLAUDE = ROOT / "examples" / "claude-first-analysis.yml"
OPENAI = ROOT / "examples" / "openai-first-analysis.yml"
FAKE_CURL = """#!/bin/sh
# Stands in for curl: records its arguments and the request, answers as a chat completions API.
printf '%s\\n' "$@" > "$CALLS/curl-args"
while [ $# -gt 0 ]; do
  case "$1" in
    --data-binary) cp "${2#@}" "$CALLS/request.json" ;;
    -H) case "$2" in @*) cp "${2#@}" "$CALLS/auth.header" ;; esac ;;
  esac
  shift
done
cat "$CALLS/completion.json"
"""


@pytest.fixture
def runner(tmp_path: Path) -> dict[str, str]:
    """first-analysis.yml's runner (gh stood in for, the real `corrections`, the hostile issue #61),
    with curl stood in for too."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (GitHub's runners have it)")
    env = runner_env(tmp_path)
    curl = tmp_path / "fake-bin" / "curl"
    curl.write_text(FAKE_CURL, encoding="utf-8")
    curl.chmod(0o755)
    return env


def _step(path: Path, name_start: str) -> dict[str, Any]:
    return next(s for s in _steps(_load(path)) if s.get("name", "").startswith(name_start))


def outputs(tmp_path: Path) -> dict[str, str]:
    """GITHUB_OUTPUT as the runner reads it: `name=value` lines and `name<<DELIMITER` blocks."""
    found: dict[str, str] = {}
    lines = iter((tmp_path / "output").read_text(encoding="utf-8").split("\n"))
    for line in lines:
        if "<<" in line:
            name, delimiter = line.split("<<", 1)
            found[name] = "\n".join(iter(lambda: next(lines), delimiter))
        elif "=" in line:
            name, value = line.split("=", 1)
            found[name] = value
    return found


@pytest.mark.parametrize("path", [CLAUDE, OPENAI], ids=lambda p: p.name)
def test_the_model_runs_where_no_token_can_write(path: Path) -> None:
    workflow = _load(path)
    assert workflow["on"] == {"issues": {"types": ["opened"]}}
    analyse, post = workflow["jobs"]["analyse"], workflow["jobs"]["post"]
    assert analyse["permissions"] == {"contents": "read", "issues": "read"}
    assert post["permissions"] == {"issues": "write"} and post["needs"] == "analyse"
    assert not any("uses" in step for step in post["steps"])  # nothing but gh runs beside the write token
    assert [s["id"] for s in analyse["steps"]][:3] == ["corrections", "prompt", "model"]
    # The post job posts with github.token, as github-actions: the reader reads that account.
    assert "assistant-login" not in analyse["steps"][0]["with"]  # the reader takes its token's account


@pytest.mark.parametrize("path", [CLAUDE, OPENAI], ids=lambda p: p.name)
def test_the_new_issue_reaches_the_prompt_cleaned_and_fenced(
    runner: dict[str, str], tmp_path: Path, path: Path
) -> None:
    step = _step(path, "Assemble the prompt")
    assert set(step["env"]) == {"GH_TOKEN", "BIN", "CONTEXT", "ISSUE"}
    assert "jq -c" not in step["run"] and 'GITHUB_EVENT_PATH"' not in step["run"].split("prompt", 1)[0]
    done = _run_step(step, runner, tmp_path)
    assert done.returncode == 0, done.stderr
    found = outputs(tmp_path)
    if path == CLAUDE:  # one text: the instructions, then the reader's prompt
        system, prompt = found["text"].split("\n\n# What the maintainers taught", 1)
        prompt = "# What the maintainers taught" + prompt + "\n"  # the output's last newline
    else:
        system = Path(found["system"]).read_text(encoding="utf-8")
        prompt = Path(found["prompt"]).read_text(encoding="utf-8")
    assert system.startswith("You triage issues of a small CLI.")
    assert "Choose labels only from: bug, crash, enhancement, possible-duplicate." in system
    assert_hostile_issue_cleaned_and_fenced(prompt)


def test_claude_is_asked_for_the_json_object_the_prompt_names() -> None:
    model = _step(CLAUDE, "The model's analysis")
    assert model["uses"].startswith("anthropics/claude-code-action@")
    assert model["with"]["prompt"] == "${{ steps.prompt.outputs.text }}"
    assert "--json-schema" in model["with"]["claude_args"]


@pytest.mark.parametrize("path", [CLAUDE, OPENAI], ids=lambda p: p.name)
def test_a_hostile_answer_is_cleaned_and_posts_only_existing_labels(
    runner: dict[str, str], tmp_path: Path, path: Path
) -> None:
    answer = json.dumps(_hostile_answer())
    step = _step(path, "Check the answer")
    assert '"$BIN/corrections" answer' in step["run"] and "--existing" in step["run"]
    assert "sed " not in step["run"] and not re.search(r"(?<![-\w])jq ", step["run"])
    env = dict(runner)
    if path == CLAUDE:
        env["ANSWER"] = answer
    else:
        response = tmp_path / "response.txt"
        response.write_text("```json\n" + answer + "\n```\n", encoding="utf-8")
        env["RESPONSE_FILE"] = str(response)
    done = _run_step(step, env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert_hostile_answer_warned(done.stderr)
    found = outputs(tmp_path)
    assert found["labels"] == "bug,crash"
    assert_hostile_answer_cleaned(found["comment"] + "\n")
    assert not (tmp_path / "pwned").exists()
    # The post job: the comment and labels as they came out of the analyse job.
    post = {**runner, "COMMENT": found["comment"], "LABELS": found["labels"]}
    done = _run_step(_step(path, "Post the analysis"), post, tmp_path)
    assert done.returncode == 0, done.stderr
    calls = Path(runner["CALLS"])
    log = (calls / "gh.log").read_text().splitlines()
    assert log[0].startswith("label list ")  # in the analyse job, before anything is posted
    assert log[-2].startswith("issue comment 61 --body-file ")
    assert log[-1] == "issue edit 61 --add-label bug,crash"
    assert_hostile_answer_cleaned((calls / "body.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", [CLAUDE, OPENAI], ids=lambda p: p.name)
def test_an_answer_that_is_not_json_posts_nothing(runner: dict[str, str], tmp_path: Path, path: Path) -> None:
    response = tmp_path / "response.txt"
    response.write_text("I think it is a bug.", encoding="utf-8")
    env = {**runner, "ANSWER": "I think it is a bug.", "RESPONSE_FILE": str(response)}
    done = _run_step(_step(path, "Check the answer"), env, tmp_path)
    assert done.returncode == 1 and "::error" in done.stderr and "nothing to post" in done.stderr
    assert "comment" not in outputs(tmp_path)


def test_the_openai_request_is_json_and_the_key_only_a_header(runner: dict[str, str], tmp_path: Path) -> None:
    out = Path(runner["RUNNER_TEMP"]) / "assistant"
    out.mkdir()
    (out / "system.md").write_text("You triage issues.\n", encoding="utf-8")
    (out / "prompt.md").write_text(
        '## The new issue\n\n```json\n{"title": "x\\"; rm -rf /"}\n```\n', encoding="utf-8"
    )
    completion = {"choices": [{"message": {"content": json.dumps(_hostile_answer())}}]}
    (Path(runner["CALLS"]) / "completion.json").write_text(json.dumps(completion), encoding="utf-8")
    env = {
        **runner,
        "OPENAI_API_KEY": "sk-secret-key",
        "OPENAI_BASE_URL": "https://models.example/v1/",
        "OPENAI_MODEL": "gpt-4o-mini",
        "SYSTEM_FILE": str(out / "system.md"),
        "PROMPT_FILE": str(out / "prompt.md"),
    }
    done = _run_step(_step(OPENAI, "The model's analysis"), env, tmp_path)
    assert done.returncode == 0, done.stderr
    calls = Path(runner["CALLS"])
    args = (calls / "curl-args").read_text()
    assert "sk-secret-key" not in args and "https://models.example/v1/chat/completions" in args
    assert (calls / "auth.header").read_text() == "Authorization: Bearer sk-secret-key\n"
    assert not (out / "auth.header").exists()
    request = json.loads((calls / "request.json").read_text())
    assert request["model"] == "gpt-4o-mini" and request["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert request["messages"][1]["content"].endswith('{"title": "x\\"; rm -rf /"}\n```\n')
    answer = Path(outputs(tmp_path)["response-file"]).read_text(encoding="utf-8")
    assert json.loads(answer) == _hostile_answer()


def test_each_example_reads_the_instructions_the_sample_shows() -> None:
    sample = (ROOT / "examples" / "instructions.md").read_text(encoding="utf-8")
    assert re.search(r"\.github/assistant/instructions\.md", sample)
    for path in (CLAUDE, OPENAI, ROOT / "examples" / "first-analysis.yml"):
        assert ".github/assistant/instructions.md" in path.read_text(encoding="utf-8")
