"""action.yml replayed step by step as GitHub's runner runs it, against the emulator (demo world).

The venv is built for real from PyPI (the uv path once in the default suite, uv fetched as its
pinned wheel; uv installed by pip, the pip path and a macOS runner's wheel are `slow`), saved to
a folder cache, then restored by a second, warm run.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from emulator import Server
from tests.emulation import DEMO, GITHUB_TOKEN_BUDGET, Emulators
from tests.kit.expressions import ExpressionError, condition, interpolate
from tests.kit.runner import FolderCache, Replay, StepFailed, StepRecord, runner_environment

ROOT = Path(__file__).resolve().parent.parent.parent
TOKEN = "ghs_replay-token-never-printed"
OPENED = {"action": "opened", "issue": {"number": 61}, "repository": {"default_branch": "main"}}
PLANTED = ("pip", "venv", "uv", "ensurepip", "corrections", "typing_extensions")
# The steps of a runner that restores the venv from the cache, up to its check.
RESTORED = [
    "Set up Python",
    "Key of the virtual environment",
    "Restore the virtual environment",
    "Check the restored virtual environment",
]


@dataclass
class Run:
    """One replayed job: the action's outputs, its steps, what the server saw."""

    outputs: dict[str, str]
    replay: Replay
    served: list[dict[str, Any]]
    spent: int  # points spent on the server so far, this run's included
    temp: Path
    workspace: Path


@pytest.fixture(scope="module")
def server(emulate_module: Emulators) -> Server:
    return emulate_module(DEMO, rate_limit=GITHUB_TOKEN_BUDGET)


def plant(workspace: Path) -> Path:
    """Modules a hostile checkout could hold, each leaving a mark if it ever runs."""
    mark = workspace.parent / "planted-code-ran"
    for name in PLANTED:
        package = workspace / name
        package.mkdir(parents=True)
        code = f"open({str(mark)!r}, 'a').write({name!r})\n"
        (package / "__init__.py").write_text(code, encoding="utf-8")
        (package / "__main__.py").write_text(code, encoding="utf-8")
    (workspace / "uv.toml").write_text('index-url = "http://127.0.0.1:9/simple"\n', encoding="utf-8")
    return mark


def action_copy(folder: Path, **requirements: str) -> Path:
    """This action in `folder`: action.yml and requirements/ copied, the named files of
    requirements/ replaced by the texts given, the Python packages linked."""
    action = folder / "action"
    action.mkdir()
    for package in ROOT.iterdir():
        if (package / "__init__.py").is_file():
            (action / package.name).symlink_to(package)
    shutil.copy(ROOT / "action.yml", action / "action.yml")
    shutil.copytree(ROOT / "requirements", action / "requirements")
    for name, text in requirements.items():
        (action / "requirements" / name).write_text(text, encoding="utf-8")
    return action


def replay(server: Any, folder: Path, cache: FolderCache, action: Path = ROOT, **environ: str) -> Run:
    """One job on a fresh runner (its own RUNNER_TEMP and workspace) sharing `cache`."""
    temp, workspace = folder / "runner-temp", folder / "workspace"
    temp.mkdir(parents=True)
    plant(workspace)
    event = folder / "event.json"
    event.write_text(json.dumps(OPENED), encoding="utf-8")
    summary = folder / "summary.md"
    summary.touch()
    environment = runner_environment(
        {
            "GITHUB_REPOSITORY": "octo/demo",
            "GITHUB_EVENT_NAME": "issues",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_API_URL": server.base_url,
            "GITHUB_GRAPHQL_URL": server.url,
            "GITHUB_STEP_SUMMARY": str(summary),
            **environ,
        }
    )
    runner = Replay(action, workspace, temp, environment, cache.stand_ins(), token=TOKEN)
    before = len(server.log())
    outputs = runner.run({})
    spent = sum(entry.get("cost") or 0 for entry in server.log())
    return Run(outputs, runner, server.log()[before:], spent, temp, workspace)


def ran(run: Run) -> list[str]:
    return [record.name for record in run.replay.records if record.ran]


def build_step(run: Run) -> StepRecord:
    return next(record for record in run.replay.records if record.name == "Build the virtual environment")


def check_read(run: Run) -> None:
    """The declared outputs of a first analysis on the demo world, as the server saw the run."""
    expected = {
        "context": str(run.temp / "corrections-context"),
        "corrected": "15",  # 13 in the window, #9 and #6 from the horizon past it
        "window": "30",
        "requests": str(len(run.served)),
        "points": str(sum(entry.get("cost") or 0 for entry in run.served)),
        "remaining": str(1000 - run.spent),
        "github-failed": "false",
        "skipped": "false",
        "mode": "first-analysis",
    }
    assert {key: run.outputs.get(key) for key in expected} == expected
    # GitHub's GraphQL round trips stay within 3; REST permission look-ups for people GraphQL's
    # collaborator list leaves out come on top (the demo has 3).
    assert 1 <= sum(entry.get("endpoint") == "graphql" for entry in run.served) <= 3
    assert int(run.outputs["points"]) <= 3
    assert (run.temp / "corrections-context" / "corrections.md").is_file()
    assert not (run.workspace.parent / "planted-code-ran").exists()
    read_log = run.replay.records[-1].log
    assert read_log.splitlines()[0] == f"::add-mask::{TOKEN}"


@pytest.fixture(scope="module")
def cold(server: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, FolderCache]:
    cache = FolderCache(tmp_path_factory.mktemp("cache"))
    return replay(server, tmp_path_factory.mktemp("cold"), cache), cache


def test_cold_runner_builds_with_uv_and_saves_before_reading(cold: tuple[Run, FolderCache]) -> None:
    run, cache = cold
    check_read(run)
    assert ran(run) == [
        "Set up Python",
        "Key of the virtual environment",
        "Restore the virtual environment",
        "Build the virtual environment",
        "Save the virtual environment",
        "Read the corrections",
    ]
    build = build_step(run)
    # uv came from its pinned wheel (curl, sha256 checked), not through pip.
    assert build.outputs == {"uv-from": "wheel", "installer": "uv"}
    assert build.log == ""
    # Saved once, under the key of this OS, architecture, Python and both locks' hash, and
    # before the read step ran (the read's context is not in it; nothing was added after).
    [key] = cache.saved
    assert key.startswith("correction-reader-venv-v3-Linux-")
    assert len(key.rsplit("-", 1)[1]) == 64
    venv = run.temp / "correction-reader-venv"
    saved = {path.relative_to(cache.root / key) for path in (cache.root / key).rglob("*")}
    assert saved == {path.relative_to(venv) for path in venv.rglob("*")}
    assert not (run.temp / "correction-reader-uv").exists()  # the installer is gone


def test_warm_runner_restores_and_only_reads(
    server: Any, cold: tuple[Run, FolderCache], tmp_path: Path
) -> None:
    _, cache = cold
    run = replay(server, tmp_path, cache)
    check_read(run)
    assert ran(run) == [*RESTORED, "Read the corrections"]
    assert next(r for r in run.replay.records if r.name.startswith("Check")).outputs == {"usable": "true"}
    assert len(cache.saved) == 1
    # The read compiled nothing: every module it imports had its bytecode in the cache entry, so
    # a warm runner never pays for compiling (a written .pyc would be a new file in the venv).
    [entry] = [cache.root / key for key in cache.saved]
    venv = run.temp / "correction-reader-venv"
    written = {path.relative_to(venv) for path in venv.rglob("*")} - {
        path.relative_to(entry) for path in entry.rglob("*")
    }
    assert not written, f"the read wrote {sorted(map(str, written))[:5]}"


def _row(site: Path, name: str) -> str:
    """The RECORD line of a file of site-packages, its sha256 and size right."""
    data = (site / name).read_bytes()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).decode().rstrip("=")
    return f"{name},sha256={digest},{len(data)}"


def _steal(mark: Path) -> str:
    return f"import os, pathlib; pathlib.Path({str(mark)!r}).write_text(os.environ.get('INPUT_TOKEN', ''))\n"


def _planted_pth(site: Path, mark: Path) -> str:
    """A `.pth` that runs at start-up, with its line in a RECORD: before, it passed and ran."""
    (site / "zz-poison.pth").write_text(_steal(mark), encoding="utf-8")
    [record] = site.glob("typing_extensions-*.dist-info/RECORD")
    record.write_text(
        f"{_row(site, 'zz-poison.pth')}\n{record.read_text(encoding='utf-8')}", encoding="utf-8"
    )
    return "zz-poison.pth: runs when Python starts; a venv built from the lock has none; it is built again"


def _fake_pip(site: Path, mark: Path) -> str:
    """A `pip-99.0.dist-info` listing a `sitecustomize.py`: before, it passed and ran."""
    (site / "sitecustomize.py").write_text(_steal(mark), encoding="utf-8")
    info = site / "pip-99.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Name: pip\nVersion: 99.0\n", encoding="utf-8")
    rows = [
        _row(site, "sitecustomize.py"),
        _row(site, "pip-99.0.dist-info/METADATA"),
        "pip-99.0.dist-info/RECORD,,",
    ]
    (info / "RECORD").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return "pip-99.0.dist-info: neither a pin of the lock nor the setup Python's bundled wheel"


def _changed_module(site: Path, mark: Path) -> str:
    """typing_extensions.py (the read imports it through pydantic) changed to write the token,
    its RECORD line changed to match: before, the check passed it and it ran."""
    module = site / "typing_extensions.py"
    module.write_text(module.read_text(encoding="utf-8") + "\n" + _steal(mark), encoding="utf-8")
    [record] = site.glob("typing_extensions-*.dist-info/RECORD")
    rows = record.read_text(encoding="utf-8").splitlines()
    rows = [_row(site, "typing_extensions.py") if r.startswith("typing_extensions.py,") else r for r in rows]
    record.write_text("\n".join(rows) + "\n", encoding="utf-8")
    for compiled in (site / "__pycache__").glob("typing_extensions.*.pyc"):
        compiled.unlink()  # so that the changed source is what runs
    return f"{record.parent.name}: its files (RECORD) are not those of any wheel of its pin"


@pytest.mark.parametrize(
    "poison",
    [
        pytest.param(_planted_pth, id="a .pth and its RECORD line"),
        # Each poisoned entry is built again from PyPI: the fake pip also has its unit test.
        pytest.param(_fake_pip, id="a fake pip-99.0 listing a sitecustomize.py", marks=pytest.mark.slow),
        pytest.param(_changed_module, id="a module and its RECORD line"),
    ],
)
def test_a_poisoned_cache_entry_is_refused_and_built_again(
    server: Any, cold: tuple[Run, FolderCache], tmp_path: Path, poison: Any
) -> None:
    # Another workflow of the repository saved the entry first, with code that runs in the read.
    _, cache = cold
    [key] = cache.saved
    poisoned = FolderCache(tmp_path / "cache")
    shutil.copytree(cache.root / key, poisoned.root / key, symlinks=True)
    mark = tmp_path / "poison-ran"
    [site] = (poisoned.root / key / "lib").glob("python3.*/site-packages")
    said = poison(site, mark)
    run = replay(server, tmp_path / "job", poisoned)
    check_read(run)
    assert ran(run) == [*RESTORED, "Build the virtual environment", "Read the corrections"]
    checked = next(record for record in run.replay.records if record.name.startswith("Check"))
    assert checked.outputs == {"usable": "false"}
    assert said in checked.log
    assert not mark.exists()
    assert not poisoned.saved  # GitHub keeps the first entry under a key: nothing to save over it


@pytest.mark.slow
def test_pip_path_builds_the_same_venv(server: Any, tmp_path: Path) -> None:
    run = replay(server, tmp_path, FolderCache(tmp_path / "cache"), CORRECTION_READER_INSTALLER="pip")
    check_read(run)
    build = build_step(run)
    assert build.outputs == {"installer": "pip"}
    assert "::warning" not in build.log
    assert not (run.temp / "correction-reader-uv").exists()  # uv was never fetched
    # What pip installed sums as the wheels do (requirements/action-records.txt): a warm runner
    # would use it.
    venv = run.temp / "correction-reader-venv"
    python = (venv / "bin" / "python").resolve()
    checked = subprocess.run(
        [
            python,
            "-I",
            ROOT / "scripts" / "check_venv.py",
            venv,
            python,
            ROOT / "requirements" / "action.txt",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda text: re.sub(r"(?m)^Linux .*\n", "", text), "uv: no pinned wheel for Linux "),
        (
            lambda text: re.sub(r"(?m)^(Linux \S+) [0-9a-f]{64}", r"\1 " + "0" * 64, text),
            "does not have its pinned sha256",
        ),
    ],
)
def test_without_a_checked_wheel_pip_installs_uv(server: Any, tmp_path: Path, change: Any, said: str) -> None:
    """No wheel listed for this runner, or one whose sha256 is not the pinned one: uv comes from
    requirements/uv.txt through pip (hash-checked too), quietly, and builds the venv."""
    wheels = (ROOT / "requirements" / "uv-wheels.txt").read_text(encoding="utf-8")
    action = action_copy(tmp_path, **{"uv-wheels.txt": change(wheels)})
    run = replay(server, tmp_path / "job", FolderCache(tmp_path / "cache"), action=action)
    check_read(run)
    build = build_step(run)
    assert build.outputs == {"uv-from": "pip", "installer": "uv"}
    assert said in build.log
    assert "uv: pip installs it from requirements/uv.txt" in build.log
    assert "::warning" not in build.log
    assert not (run.temp / "correction-reader-uv").exists()


@pytest.mark.slow
def test_a_macos_runner_takes_its_own_wheel_checked_with_shasum(server: Any, tmp_path: Path) -> None:
    """`uname` says macOS on Apple silicon: the Darwin arm64 wheel is downloaded, passes shasum's
    check and is extracted; its binary cannot run on this Linux machine, so pip builds the venv
    with the warning (the last fallback, end to end)."""
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    uname = fake / "uname"
    real = shutil.which("uname")
    uname.write_text(
        f'#!/bin/sh\ncase "$1" in -s) echo Darwin ;; -m) echo arm64 ;; *) exec {real} "$@" ;; esac\n'
    )
    uname.chmod(0o755)
    path = f"{fake}:{runner_environment({})['PATH']}"
    run = replay(server, tmp_path / "job", FolderCache(tmp_path / "cache"), PATH=path)
    check_read(run)
    build = build_step(run)
    assert build.outputs == {"uv-from": "wheel", "installer": "pip"}
    assert "pinned" not in build.log
    assert "::warning title=correction-reader::uv could not build the virtual environment" in build.log


@pytest.mark.slow
def test_a_wrong_hash_fails_both_paths_and_stops_the_action(tmp_path: Path) -> None:
    """A wheel whose hash is not the lock's is refused by uv, then by pip; the action stops there."""
    action = tmp_path / "action"
    (action / "requirements").mkdir(parents=True)
    shutil.copy(ROOT / "action.yml", action / "action.yml")
    for name in ("uv.txt", "uv-wheels.txt"):
        shutil.copy(ROOT / "requirements" / name, action / "requirements" / name)
    lock = (ROOT / "requirements" / "action.txt").read_text(encoding="utf-8")
    wrong = re.sub(r"sha256:[0-9a-f]{64}", "sha256:" + "0" * 64, lock)
    (action / "requirements" / "action.txt").write_text(wrong, encoding="utf-8")
    for folder in ("workspace", "temp"):
        (tmp_path / folder).mkdir()
    environment = runner_environment({"GITHUB_STEP_SUMMARY": str(tmp_path / "summary")})
    runner = Replay(
        action,
        tmp_path / "workspace",
        tmp_path / "temp",
        environment,
        FolderCache(tmp_path / "cache").stand_ins(),
    )
    with pytest.raises(
        StepFailed, match=r"(?s)step 'Build the virtual environment' exited 1.*uv could not build"
    ) as failed:
        runner.run({})
    assert "pip installs it" not in str(failed.value)  # uv came from its checked wheel
    assert [record.name for record in runner.records][-1] == "Restore the virtual environment"


def test_expressions_as_github_evaluates_them() -> None:
    contexts: dict[str, Any] = {
        "steps": {"cache": {"outputs": {"cache-hit": "TRUE"}}, "key": {"outputs": {"hash": "abc"}}},
        "inputs": {"max-analyzed": ""},
        "runner": {"os": "Linux"},
    }
    assert not condition("steps.cache.outputs.cache-hit != 'true'", contexts)  # case-insensitive
    assert condition("${{ steps.nothing.outputs.cache-hit != 'true' }}", contexts)  # null is ''
    assert condition("inputs.max-analyzed == '' && runner.os == 'Linux'", contexts)
    assert condition("(runner.os == 'macOS' || runner.os == 'linux')", contexts)
    assert interpolate(
        "k-${{ runner.os }}-${{ steps.key.outputs.hash }}-${{ inputs.max-analyzed }}", contexts
    ) == ("k-Linux-abc-")
    assert interpolate("${{ 'it''s' }}", contexts) == "it's"
    for unsupported in (
        "success()",
        "github.event.issue[0]",
        "!steps.x",
        "1 == 1",
        "vars.X",
        "format('{0}', 1)",
    ):
        with pytest.raises(ExpressionError):
            condition(unsupported, contexts)
