"""scripts/changelog_section.py: the release notes are the CHANGELOG section of the tag, or the release stops."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "changelog_section.py"

CHANGELOG = """# Changelog

Intro text.

## [Unreleased]

### Added

- something not released yet

## [1.2.0] - 2026-12-01

### Fixed

- the second fix
- ## not a heading: inside a list item

## [1.1.0] - 2026-11-01

### Added

- the first feature

## [1.0.0] - 2026-10-01

## [0.9.0] - 2026-09-01

- the last section

[Unreleased]: https://example.com/compare/v1.2.0...HEAD
[1.2.0]: https://example.com/releases/tag/v1.2.0
"""


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("changelog_section", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["changelog_section"] = module
    spec.loader.exec_module(module)
    return module


def test_the_section_of_a_version_stops_at_the_next_heading(script: ModuleType) -> None:
    assert script.section(CHANGELOG, "1.2.0") == (
        "### Fixed\n\n- the second fix\n- ## not a heading: inside a list item\n"
    )
    assert script.section(CHANGELOG, "1.1.0") == "### Added\n\n- the first feature\n"


def test_the_last_section_stops_before_the_link_definitions(script: ModuleType) -> None:
    assert script.section(CHANGELOG, "0.9.0") == "- the last section\n"


def test_a_missing_or_empty_section_is_an_error(script: ModuleType) -> None:
    with pytest.raises(script.ChangelogError, match=r"no section for 2\.0\.0"):
        script.section(CHANGELOG, "2.0.0")
    with pytest.raises(script.ChangelogError, match=r"line \d+: the section for 1\.0\.0 is empty"):
        script.section(CHANGELOG, "1.0.0")
    with pytest.raises(script.ChangelogError):
        script.section(CHANGELOG, "1.2")  # no prefix match: 1.2 is not 1.2.0


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def test_the_command_prints_the_notes_of_a_tag_and_checks_the_version(tmp_path: Path) -> None:
    (tmp_path / "CHANGELOG.md").write_text(CHANGELOG, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "1.2.0"\n', encoding="utf-8")
    done = _run("v1.2.0", "--pyproject", "pyproject.toml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("### Fixed\n\n- the second fix\n")
    wrong = _run("v1.1.0", "--pyproject", "pyproject.toml", cwd=tmp_path)
    assert wrong.returncode == 1
    assert wrong.stdout == ""
    assert wrong.stderr == "changelog_section: pyproject.toml: version is 1.2.0, the tag says 1.1.0\n"


def test_this_repository_s_changelog_has_the_section_of_its_version() -> None:
    done = _run("v" + _project_version(), "--pyproject", "pyproject.toml", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "### Added" in done.stdout
    # The next release's section: empty right after a release, never missing.
    headings = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines()
    assert "## [Unreleased]" in headings, "CHANGELOG.md keeps an Unreleased section for the next release"


def _project_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"])
