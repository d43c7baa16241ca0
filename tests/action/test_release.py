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
