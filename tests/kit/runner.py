"""A stand-in for GitHub's runner: a composite action.yml's steps, executed as the runner does.

Each `run:` step is written to a file and run with `bash --noprofile --norc -eo pipefail` in the
workspace, its `${{ }}` evaluated first (tests.kit.expressions), with the step's `env:`, GITHUB_OUTPUT,
GITHUB_ENV and GITHUB_PATH files fresh for the step and read back after it; `if:` is honoured
and a failing step stops the action. `uses:` steps go to stand-ins given by the caller (a
setup-python that reports this machine's Python, a cache kept in a folder), and must be pinned
to a full commit SHA. Used by tests/action/test_replay.py and `python -m bench --step`.
https://docs.github.com/en/actions/reference/workflows-and-actions/metadata-syntax
https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tests.kit.expressions import condition, interpolate

_PINNED = re.compile(r"^(?P<name>[\w.-]+/[\w./-]+)@[0-9a-f]{40}$")
# Step keys this replay honours; any other (working-directory, continue-on-error, ...) is refused.
_STEP_KEYS = frozenset({"name", "id", "if", "uses", "with", "shell", "env", "run"})
StandIn = Callable[[Mapping[str, str]], dict[str, str]]


class StepFailed(RuntimeError):
    """A step of the action failed: the action fails there, as on GitHub."""


@dataclass(frozen=True)
class StepRecord:
    """What one step did."""

    name: str
    ran: bool
    seconds: float
    outputs: dict[str, str]
    log: str


@dataclass
class Replay:
    """One job's runner: the folders and environment GitHub gives a step, and the stand-ins."""

    action_path: Path
    workspace: Path
    temp: Path
    environment: dict[str, str]
    stand_ins: Mapping[str, StandIn]
    token: str = ""
    records: list[StepRecord] = field(default_factory=list)
    default_shell: str | None = None  # a workflow job's `run:` steps default to bash on Linux

    def run(self, inputs: Mapping[str, str]) -> dict[str, str]:
        """Run every step of action.yml with these inputs; the action's declared outputs."""
        action = yaml.safe_load((self.action_path / "action.yml").read_text(encoding="utf-8"))
        if action["runs"]["using"] != "composite":
            raise StepFailed("not a composite action")
        contexts: dict[str, Any] = {
            "github": {
                "token": self.token,
                "action_path": str(self.action_path),
                "workspace": str(self.workspace),
                "repository": self.environment.get("GITHUB_REPOSITORY", ""),
                "event_name": self.environment.get("GITHUB_EVENT_NAME", ""),
            },
            "runner": {"os": "Linux", "arch": _arch(), "temp": str(self.temp)},
            "steps": {},
        }
        declared = action.get("inputs", {})
        unknown = set(inputs) - set(declared)
        if unknown:
            raise StepFailed(f"unexpected inputs {sorted(unknown)}")
        contexts["inputs"] = {
            name: inputs[name] if name in inputs else interpolate(str(spec.get("default", "")), contexts)
            for name, spec in declared.items()
        }
        self.run_steps(action["runs"]["steps"], contexts)
        return {name: interpolate(str(spec["value"]), contexts) for name, spec in action["outputs"].items()}

    def run_steps(self, steps: Sequence[Mapping[str, Any]], contexts: dict[str, Any]) -> None:
        """Run steps in order (an action's, or a workflow job's); their outputs go to `contexts`."""
        env = dict(self.environment)
        for index, step in enumerate(steps):
            record = self._step(step, index, contexts, env)
            self.records.append(record)
            if "id" in step:
                contexts["steps"][step["id"]] = {"outputs": record.outputs, "outcome": "success"}

    def _step(
        self, step: Mapping[str, Any], index: int, contexts: dict[str, Any], env: dict[str, str]
    ) -> StepRecord:
        name = str(step.get("name", step.get("id", index)))
        if set(step) - _STEP_KEYS:
            raise StepFailed(f"step {name!r}: {sorted(set(step) - _STEP_KEYS)} not replayed")
        if "if" in step and not condition(str(step["if"]), contexts):
            return StepRecord(name, ran=False, seconds=0.0, outputs={}, log="")
        step_env = {key: interpolate(_scalar(value), contexts) for key, value in step.get("env", {}).items()}
        started = time.perf_counter()
        if "uses" in step:
            pinned = _PINNED.match(str(step["uses"]))
            if pinned is None:
                raise StepFailed(f"step {name!r}: uses {step['uses']!r} is not pinned to a commit SHA")
            stand_in = self.stand_ins.get(pinned.group("name"))
            if stand_in is None:
                raise StepFailed(f"step {name!r}: no stand-in for {pinned.group('name')}")
            with_ = {
                key: interpolate(_scalar(value), contexts) for key, value in step.get("with", {}).items()
            }
            outputs, log = stand_in(with_), ""
        else:
            if step.get("shell", self.default_shell) != "bash":
                raise StepFailed(f"step {name!r}: shell {step.get('shell')!r}, only bash is replayed")
            outputs, log = self._bash(
                name, index, interpolate(str(step["run"]), contexts), {**env, **step_env}, env
            )
        return StepRecord(name, ran=True, seconds=time.perf_counter() - started, outputs=outputs, log=log)

    def _bash(
        self, name: str, index: int, script: str, step_env: dict[str, str], job_env: dict[str, str]
    ) -> tuple[dict[str, str], str]:
        files = {
            key: self.temp / f"_runner_file_commands/{key.lower()}_{index}"
            for key in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH")
        }
        for path in files.values():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("", encoding="utf-8")
        script_file = self.temp / f"_step_{index}.sh"
        script_file.write_text(script, encoding="utf-8")
        environ = {
            **step_env,
            **{key: str(path) for key, path in files.items()},
            "GITHUB_ACTION_PATH": str(self.action_path),
            "GITHUB_WORKSPACE": str(self.workspace),
            "RUNNER_TEMP": str(self.temp),
        }
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script_file)],
            cwd=self.workspace,
            env=environ,
            capture_output=True,
            text=True,
            check=False,
        )
        log = done.stdout + done.stderr
        if done.returncode != 0:
            raise StepFailed(f"step {name!r} exited {done.returncode}:\n{log}")
        job_env.update(read_file_command(files["GITHUB_ENV"]))
        added = [line for line in files["GITHUB_PATH"].read_text(encoding="utf-8").splitlines() if line]
        if added:
            job_env["PATH"] = os.pathsep.join([*reversed(added), job_env.get("PATH", "")])
        return read_file_command(files["GITHUB_OUTPUT"]), log


def _scalar(value: Any) -> str:
    """A YAML scalar as the runner reads it: `false` is the string "false"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def read_file_command(path: Path) -> dict[str, str]:
    """GITHUB_OUTPUT or GITHUB_ENV as the runner reads them: name=value and name<<DELIMITER blocks."""
    values: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line:
            index += 1
        elif "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, index + 1)
            values[key] = "\n".join(lines[index + 1 : end])
            index = end + 1
        else:
            key, value = line.split("=", 1)
            values[key] = value
            index += 1
    return values


def _arch() -> str:
    return {"x86_64": "X64", "amd64": "X64", "aarch64": "ARM64", "arm64": "ARM64"}.get(
        platform.machine().lower(), "X86"
    )


def machine_python() -> Path:
    """This machine's base interpreter (not a venv's), as setup-python's `python-path` would be."""
    return Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"


def setup_python(with_: Mapping[str, str]) -> dict[str, str]:
    """actions/setup-python: this machine's Python, when it is the version asked for."""
    version = platform.python_version()
    if not (version + ".").startswith(with_["python-version"] + "."):
        raise StepFailed(f"setup-python asks for {with_['python-version']}, this machine has {version}")
    if with_.get("update-environment") != "false":
        raise StepFailed("setup-python would change the job's PATH (update-environment is not false)")
    return {"python-path": str(machine_python()), "python-version": version}


@dataclass
class FolderCache:
    """actions/cache/restore and actions/cache/save over a folder: exact keys, entries immutable."""

    root: Path
    saved: list[str] = field(default_factory=list)

    def restore(self, with_: Mapping[str, str]) -> dict[str, str]:
        key, path = with_["key"], Path(with_["path"])
        if "restore-keys" in with_:
            raise StepFailed("restore-keys would restore an entry saved under another key")
        entry = self.root / key
        if not entry.is_dir():
            return {"cache-hit": "false", "cache-primary-key": key}
        shutil.rmtree(path, ignore_errors=True)
        shutil.copytree(entry, path, symlinks=True)
        return {"cache-hit": "true", "cache-primary-key": key, "cache-matched-key": key}

    def save(self, with_: Mapping[str, str]) -> dict[str, str]:
        key, path = with_["key"], Path(with_["path"])
        if not key:
            raise StepFailed("cache save without a key")
        entry = self.root / key
        if not entry.exists():  # GitHub keeps the first entry saved under a key
            shutil.copytree(path, entry, symlinks=True)
            self.saved.append(key)
        return {}

    def stand_ins(self) -> dict[str, StandIn]:
        return {
            "actions/setup-python": setup_python,
            "actions/cache/restore": self.restore,
            "actions/cache/save": self.save,
        }


def runner_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """This process's environment as a runner's: no GITHUB_*, INPUT_*, RUNNER_* or PYTHON* of ours."""
    kept = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GITHUB_", "INPUT_", "RUNNER_", "PYTHON", "VIRTUAL_ENV"))
    }
    return {**kept, "CI": "true", "GITHUB_ACTIONS": "true", **extra}
