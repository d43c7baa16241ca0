"""Nothing in the workspace is importable by the action: its run line, read from action.yml, run as
the runner runs it (bash, in the workspace) with Python files planted where `-m` would find them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PLANTED = "import pathlib\npathlib.Path('PWNED').write_text(__name__)\nraise SystemExit(99)\n"


def _scalar(value: str) -> str:
    """A one-line YAML scalar as YAML reads it (plain, single- or double-quoted without escapes)."""
    value = value.strip()
    if value.startswith("'") and value.endswith("'"):
        return value[1:-1].replace("''", "'")
    if value.startswith('"') and value.endswith('"'):
        return str(json.loads(value))
    return value


def run_line(step_id: str) -> str:
    """The `run:` of the composite step with `id: step_id` in action.yml (one line or a `|` block)."""
    lines = (ROOT / "action.yml").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"id: {step_id}")
    indent = len(lines[start]) - len(lines[start].lstrip())
    for index in range(start + 1, len(lines)):
        line = lines[index]
        stripped = line.strip()
        if stripped.startswith("- ") and len(line) - len(line.lstrip()) < indent:
            break  # the next step
        if not stripped.startswith("run:"):
            continue
        value = stripped.removeprefix("run:").strip()
        if value not in {"|", "|-", ">", ">-"}:
            return _scalar(value)
        block = []
        for body in lines[index + 1 :]:
            if body.strip() and len(body) - len(body.lstrip()) <= indent:
                break
            block.append(body.strip())
        return "\n".join(block).strip()
    raise AssertionError(f"action.yml: step {step_id} has no run line")


def test_planted_python_files_in_the_workspace_do_not_run(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "corrections").mkdir(parents=True)
    (workspace / "queries").mkdir()
    (workspace / "typing_extensions.py").write_text(PLANTED, encoding="utf-8")
    (workspace / "pydantic.py").write_text(PLANTED, encoding="utf-8")
    (workspace / "corrections" / "__init__.py").write_text(PLANTED, encoding="utf-8")
    (workspace / "corrections" / "__main__.py").write_text(PLANTED, encoding="utf-8")
    (workspace / "queries" / "__init__.py").write_text(PLANTED, encoding="utf-8")
    (workspace / "sitecustomize.py").write_text(PLANTED, encoding="utf-8")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "created"}), encoding="utf-8")
    (tmp_path / "output").touch()
    (tmp_path / "summary").touch()
    environ = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_REPOSITORY": "octo/demo",
        "GITHUB_EVENT_NAME": "issue_comment",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
        "RUNNER_TEMP": str(tmp_path),
        "INPUT_TOKEN": "",
        # As the step's env: sets them: the venv (here the project's) and the action's folder.
        "VENV": str(Path(sys.executable).parent.parent),
        "PYTHONPATH": str(ROOT),
    }

    done = subprocess.run(
        ["bash", "-e", "-c", run_line("read")],
        cwd=workspace,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert not (workspace / "PWNED").exists(), (workspace / "PWNED").read_text(encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert "issue_comment.created is a follow-up" in done.stdout
    assert "skipped=true" in (tmp_path / "output").read_text(encoding="utf-8")


def test_the_build_and_the_check_run_python_isolated() -> None:
    # -P left the user's site-packages on: a `.pth` there ran inside the build, whose venv is cached.
    for step_id in ("build", "check"):
        text = run_line(step_id)
        # Each command that runs Python (at the start of a line, after `&&` or in `$(...)`).
        calls = re.findall(r'(?:^|&&|\$\()\s*"\$(?:PYTHON|VENV/bin/python)"\s+(\S+)', text, re.MULTILINE)
        assert calls, step_id
        assert set(calls) == {"-I"}, (step_id, calls)
