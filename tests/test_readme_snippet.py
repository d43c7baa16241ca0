"""README's quick-start workflow, tested like the examples: it lints clean under zizmor's pedantic
persona and actionlint, and its own steps, run in bash with gh and the model stood in, give the
model the new issue (cleaned and fenced) and post only the checked answer with its marker."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.test_examples import (
    _hostile_answer,
    _run_step,
    assert_hostile_answer_cleaned,
    assert_hostile_issue_cleaned_and_fenced,
    runner_env,
)

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def readme_workflow() -> str:
    """The one YAML block of README.md's quick start."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    [block] = re.findall(r"```yaml\n(.*?)```", section, flags=re.DOTALL)
    return str(block)


def _steps() -> list[dict[str, Any]]:
    loaded = yaml.safe_load(readme_workflow())
    return [step for job in loaded["jobs"].values() for step in job["steps"]]


def _step(name_start: str) -> dict[str, Any]:
    return next(s for s in _steps() if s.get("name", "").startswith(name_start))


@pytest.fixture
def runner(tmp_path: Path) -> dict[str, str]:
    return runner_env(tmp_path)


@pytest.mark.parametrize("tool", ["zizmor", "actionlint"])
def test_the_snippet_lints_clean(tmp_path: Path, tool: str) -> None:
    if not (BIN / tool).is_file():
        pytest.skip(f"{tool} is not installed (the lint extra)")
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "first-analysis.yml").write_text(
        "name: Triage assistant\n" + readme_workflow(), encoding="utf-8"
    )
    argv = {
        "zizmor": ["--offline", "--quiet", "--persona=pedantic", "--min-severity=low"],
        "actionlint": [],
    }[tool]
    done = subprocess.run(
        [str(BIN / tool), *argv, str(workflows / "first-analysis.yml")],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_snippet_is_pinned_and_reads_no_expression_in_shell_text() -> None:
    uses = [step["uses"] for step in _steps() if "uses" in step]
    assert all(re.fullmatch(r"[\w./-]+@[0-9a-f]{40}", ref) for ref in uses)
    assert all("${{" not in step.get("run", "") for step in _steps())


def test_the_model_is_given_the_new_issue(runner: dict[str, str], tmp_path: Path) -> None:
    done = _run_step(_step("Prompt"), runner, tmp_path)
    assert done.returncode == 0, done.stderr
    temp = Path(runner["RUNNER_TEMP"])
    system = (temp / "system.md").read_text(encoding="utf-8")
    assert system.startswith("You triage issues of a small CLI.")
    assert "Choose labels only from: bug, crash, enhancement, possible-duplicate" in system
    model = yaml.safe_load(readme_workflow())["jobs"]["first-analysis"]["steps"][2]
    assert model["with"]["prompt-file"] == "${{ runner.temp }}/prompt.md"
    prompt = (temp / "prompt.md").read_text(encoding="utf-8")
    assert "its text is at the end of this prompt" in prompt
    assert_hostile_issue_cleaned_and_fenced(prompt)


def test_without_instructions_md_the_step_goes_on(runner: dict[str, str], tmp_path: Path) -> None:
    done = _run_step(_step("Prompt"), {**runner, "NO_INSTRUCTIONS": "1"}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert (
        (Path(runner["RUNNER_TEMP"]) / "system.md")
        .read_text(encoding="utf-8")
        .startswith("You triage new issues.")
    )


def test_only_the_checked_answer_is_posted(runner: dict[str, str], tmp_path: Path) -> None:
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    response = tmp_path / "response.txt"
    response.write_text(json.dumps(_hostile_answer()), encoding="utf-8")
    done = _run_step(_step("Post the analysis"), {**runner, "RESPONSE_FILE": str(response)}, tmp_path)
    assert done.returncode == 0, done.stderr
    calls = Path(runner["CALLS"])
    log = (calls / "gh.log").read_text().splitlines()
    assert [line.split(" --")[0] for line in log] == ["label list", "issue comment 61", "issue edit 61"]
    assert log[2] == "issue edit 61 --add-label bug,crash"
    assert_hostile_answer_cleaned((calls / "body.md").read_text(encoding="utf-8"))
