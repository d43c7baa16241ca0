"""`corrections --version` and `learnings --version`: the distribution's version, installed or not."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path

import pytest

from assistant import version
from corrections.commands.cli import main as corrections_main
from learnings.cli import main as learnings_main

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


@pytest.mark.parametrize(("prog", "main"), [("corrections", corrections_main), ("learnings", learnings_main)])
def test_version_prints_the_program_and_the_project_version(
    prog: str, main: Callable[[Sequence[str]], int], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    captured = capsys.readouterr()
    assert captured.out == f"{prog} {PYPROJECT['version']}\n"
    assert captured.err == ""


def _not_installed(name: str) -> str:
    raise metadata.PackageNotFoundError(name)


def test_a_checkout_that_is_not_installed_reads_pyproject(monkeypatch: pytest.MonkeyPatch) -> None:
    # The action runs the checkout with PYTHONPATH and installs only the dependencies.
    monkeypatch.setattr(metadata, "version", _not_installed)
    assert version.package_version() == PYPROJECT["version"]


@pytest.mark.parametrize("text", [None, "[project]\nname = 'someone-else'\nversion = '9.9'\n", "not toml ["])
def test_without_metadata_or_our_pyproject_the_version_is_unknown(
    text: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject = tmp_path / "pyproject.toml"
    if text is not None:
        pyproject.write_text(text, encoding="utf-8")
    monkeypatch.setattr(metadata, "version", _not_installed)
    monkeypatch.setattr(version, "_PYPROJECT", pyproject)
    assert version.package_version() == "unknown"


def test_an_installed_copy_without_our_pyproject_reads_the_metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(metadata, "version", lambda name: "7.7.7" if name == version.DISTRIBUTION else "")
    monkeypatch.setattr(version, "_PYPROJECT", tmp_path / "pyproject.toml")
    assert version.package_version() == "7.7.7"


def test_a_checkout_answers_without_importlib_metadata() -> None:
    """Looking through every installed distribution's metadata took longer than the rest of --version."""
    code = (
        "import sys, contextlib, io\n"
        "from corrections.commands.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--version'])\n"
        "print('importlib.metadata' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
