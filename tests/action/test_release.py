"""Releasable as `v1`: the Marketplace's rules for action.yml and for the action repository, and
one spelling of the owner's placeholder (docs/action.md, "Releasing")."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
# The colours the metadata syntax allows for `branding.color`.
COLORS = {"white", "black", "yellow", "blue", "green", "orange", "red", "purple", "gray-dark"}
PLACEHOLDER = "OWNER/correction-reader"


def test_action_yml_is_what_the_marketplace_lists() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["name"] and action["author"]
    assert 0 < len(action["description"]) <= 125, len(action["description"])
    assert action["branding"]["color"] in COLORS
    assert re.fullmatch(r"[a-z0-9-]+", action["branding"]["icon"])


def test_the_action_repository_receives_no_workflow_file() -> None:
    files = subprocess.run(
        ["git", "ls-files", ".github/workflows"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert files, "the development repository keeps its workflows"
    ignored = subprocess.run(
        ["git", "check-attr", "export-ignore", "--", *files],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert ignored == [f"{name}: export-ignore: set" for name in files]


def test_the_version_and_the_project_urls() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert int(project["version"].split(".")[0]) >= 1  # the release workflow moves `v1`
    assert {"Homepage", "Changelog", "Issues"} <= set(project["urls"])
    assert all(url.startswith(f"https://github.com/{PLACEHOLDER}") for url in project["urls"].values())


def test_the_owner_is_one_placeholder() -> None:
    """Every `uses:` of the action and every link to its repository spells the owner OWNER."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    named = re.compile(r"(?:uses:\s*|github\.com/)([\w.-]+)/correction-reader\b")
    owners = set()
    for name in tracked.stdout.split():
        path = ROOT / name
        if path.suffix in {".md", ".yml", ".toml"} and path.is_file():
            owners |= set(named.findall(path.read_text(encoding="utf-8")))
    assert owners == {"OWNER"}
    docs = (ROOT / "docs" / "action.md").read_text(encoding="utf-8")
    assert "### Releasing" in docs and PLACEHOLDER in docs.split("### Releasing", 1)[1]


FAKE_GH = """#!/bin/sh
# gh for the publish step: `repo clone` clones the local action repository, the rest does nothing.
if [ "$1" = repo ] && [ "$2" = clone ]; then exec git clone --quiet "$ACTION_REMOTE" "$4"; fi
exit 0
"""


def _publish_step() -> dict[str, str]:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8"))
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    return next(step for step in steps if step.get("name") == "Publish to the action repository")


def _ls_remote(remote: Path, ref: str) -> list[str]:
    listed = subprocess.run(
        ["git", "ls-remote", str(remote), ref], capture_output=True, text=True, check=True
    )
    return [line.split("\t")[0] for line in listed.stdout.splitlines()]


def test_the_release_tag_is_annotated_so_the_documented_ls_remote_prints_its_commit(tmp_path: Path) -> None:
    remote = tmp_path / "action.git"
    subprocess.run(["git", "init", "--quiet", "--bare", "--initial-branch=main", str(remote)], check=True)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "gh").write_text(FAKE_GH, encoding="utf-8")
    (fake / "gh").chmod(0o755)
    temp, workspace = tmp_path / "temp", tmp_path / "workspace"
    (temp / "action").mkdir(parents=True)
    (temp / "action" / "action.yml").write_text("name: x\n", encoding="utf-8")
    (temp / "notes.md").write_text("notes\n", encoding="utf-8")
    (workspace / "dist").mkdir(parents=True)
    script = tmp_path / "step.sh"
    script.write_text(_publish_step()["run"], encoding="utf-8")
    environ = {
        "PATH": f"{fake}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "VERSION": "1.2.0",
        "ACTION_REPOSITORY": "OWNER/correction-reader",
        "ACTION_REMOTE": str(remote),
        "SOURCE": "OWNER/dev@abc",
        "RUNNER_TEMP": str(temp),
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "GIT_CONFIG_GLOBAL": "/dev/null",
    }
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    head = _ls_remote(remote, "refs/heads/main")
    # docs/action.md's command: the peeled tag is the release's commit; `v1` names it too.
    assert _ls_remote(remote, "refs/tags/v1.2.0^{}") == head
    assert _ls_remote(remote, "refs/tags/v1") == head
    docs = (ROOT / "docs" / "action.md").read_text(encoding="utf-8")
    assert "git ls-remote https://github.com/OWNER/correction-reader 'refs/tags/v1.2.0^{}'" in docs


def test_docs_name_every_input_variable_the_step_is_given() -> None:
    """docs/action.md lists the INPUT_* variables of the step's `env:`, all of them and in order."""
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    given = [
        name for step in action["runs"]["steps"] for name in step.get("env", {}) if name.startswith("INPUT_")
    ]
    docs = (ROOT / "docs" / "action.md").read_text(encoding="utf-8")
    paragraph = docs.split("reaches it only through `env:` (", 1)[1].split(")", 1)[0]
    assert re.findall(r"`(INPUT_\w+)`", paragraph) == given
