"""``python -m emulator``: the first line, a clean stop on SIGTERM, a bad world file."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def test_first_line_then_serves_until_sigterm() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "emulator", "--world", str(HERE / "small_world.json")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:") and line.endswith("/graphql")
        url = line.removeprefix("listening on ")
        request = urllib.request.Request(
            url,
            json.dumps({"query": "{ viewer { login } }"}).encode(),
            {"Authorization": "bearer x"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            assert json.loads(response.read())["data"]["viewer"]["login"] == "github-actions[bot]"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        process.kill()
        process.wait()


def test_bad_world_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "world.json"
    bad.write_text('{"repository": {"owner": "o", "name": "r"}, "issues": [{"number": "x"}]}')
    result = subprocess.run(
        [sys.executable, "-m", "emulator", "--world", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and str(bad) in result.stderr and "issues.0" in result.stderr
