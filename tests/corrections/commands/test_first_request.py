"""A read's first request leaves before the rest of the reader is loaded, and is never wasted.

The first scan page needs nothing GitHub says, so `corrections read` and the action send it as
soon as the HTTP client is loaded (corrections/read/entry.py), its document as text, and load gql
and graphql-core, pydantic, the models and the rules while GitHub answers. Checked in a fresh interpreter: `-X importtime` names each module as
it is imported, and an audit hook marks the first connection in the same stream.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from corrections.read.options import build_options
from corrections.read.round_trips import read_corrections
from corrections.read.scan_asks import first_ask
from emulator import Server
from queries.client import GitHubClient
from queries.window_request import EarlyRequest
from tests.emulation import Emulators

ROOT = Path(__file__).resolve().parents[3]
# What loads while GitHub answers the first request: the models, the renderers, and gql with
# graphql-core (the first request's document is sent as text).
AFTER_THE_FIRST_REQUEST = {"pydantic", "pydantic_core", "jinja2", "gql", "graphql"}
MARK = "first connection"
# Run as a script: the audit hook is in place before anything of the product is imported.
PROBE = """
import sys
def mark(event, args):
    if event == "socket.connect":
        sys.stderr.write("MARK\\n")
        sys.stderr.flush()
sys.addaudithook(mark)
{call}
""".replace("MARK", MARK)


def imports_before_the_first_connection(call: str, cwd: Path, env: dict[str, str]) -> tuple[set[str], str]:
    """Top-level packages imported before the process's first connection, and its stderr."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", PROBE.format(call=call)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **env},
        timeout=120,
    )
    lines = done.stderr.splitlines()
    assert MARK in lines, done.stderr[-2000:]
    before = lines[: lines.index(MARK)]
    modules = {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in before
        if line.startswith("import time:") and "|" in line
    }
    return modules, done.stderr


def test_corrections_read_connects_before_loading_pydantic(emulate: Emulators, tmp_path: Path) -> None:
    server = emulate()
    call = (
        "from corrections.commands.cli import main; "
        f"main(['read', '--repo', 'octo/demo', '--api-url', {server.url!r}, '--out', 'context'])"
    )
    modules, stderr = imports_before_the_first_connection(call, tmp_path, {"GITHUB_TOKEN": "ghs_x"})
    assert "aiohttp" in modules  # the client is loaded before it connects: the check can see imports
    assert not modules & AFTER_THE_FIRST_REQUEST, sorted(modules)
    assert "window 30 issues" in stderr  # and the read went on to the end
    assert (tmp_path / "context" / "corrections.md").is_file()


def test_the_action_connects_before_loading_pydantic(emulate: Emulators, tmp_path: Path) -> None:
    server = emulate()
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "opened", "issue": {"number": 61, "title": "t", "body": "b"}}))
    env = {
        "GITHUB_REPOSITORY": "octo/demo",
        "GITHUB_EVENT_NAME": "issues",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_GRAPHQL_URL": server.url,
        "INPUT_TOKEN": "ghs_x",
        "INPUT_OUT": str(tmp_path / "context"),
    }
    modules, stderr = imports_before_the_first_connection(
        "from corrections.commands.action_step import main; main()", tmp_path, env
    )
    assert "aiohttp" in modules
    assert not modules & AFTER_THE_FIRST_REQUEST, sorted(modules)
    assert (tmp_path / "context" / "prompt.md").is_file(), stderr[-2000:]


def test_a_configured_read_also_sends_its_first_request_before_pydantic(
    emulate: Emulators, tmp_path: Path
) -> None:
    """A configuration file is validated in plain Python (assistant/config_keys.py), before the request."""
    server = emulate()
    (tmp_path / "assistant.toml").write_text("[context]\nmax_analyzed = 10\n", encoding="utf-8")
    call = (
        "from corrections.commands.cli import main; "
        f"main(['read', '--repo', 'octo/demo', '--api-url', {server.url!r}, '--out', 'context', "
        "'--config', 'assistant.toml'])"
    )
    modules, stderr = imports_before_the_first_connection(call, tmp_path, {"GITHUB_TOKEN": "ghs_x"})
    assert "aiohttp" in modules
    assert not modules & AFTER_THE_FIRST_REQUEST, sorted(modules)
    assert "window 10 issues" in stderr  # the file's value was in force


def _operations(server: Server) -> list[str]:
    return [str(entry["operation"]) for entry in server.log()]


@pytest.mark.parametrize(
    ("config", "max_analyzed", "issue"),
    [
        (None, None, None),  # the defaults: nothing validated before the request
        ("[context]\nscan_pages = 2\nlabels_file = 'docs/labels.md'\n", None, None),
        (None, 12, 61),  # --max-analyzed and --issue
        ("[learnings]\nenabled = false\n", None, None),
    ],
)
def test_the_early_request_is_the_first_page_and_is_sent_once(
    emulate: Emulators,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    config: str | None,
    max_analyzed: int | None,
    issue: int | None,
) -> None:
    """Whatever is configured, the first page is the request sent early: one CorrectionWindow."""
    server = emulate()
    monkeypatch.chdir(tmp_path)
    if config is not None:
        (tmp_path / "assistant.toml").write_text(config, encoding="utf-8")
    arguments = ["read", "--repo", "octo/demo", "--api-url", server.url, "--out", "context"]
    arguments += ["--config", "assistant.toml"] if config is not None else []
    arguments += ["--max-analyzed", str(max_analyzed)] if max_analyzed is not None else []
    arguments += ["--issue", str(issue)] if issue is not None else []
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_x")
    from corrections.commands.cli import main

    assert main(arguments) == 0
    operations = _operations(server)
    assert operations.count("CorrectionWindow") == 1, operations
    assert operations[0] == "CorrectionWindow"


def test_the_early_request_is_the_scans_first_page(
    emulate: Emulators, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built once from the options (scan_asks.first_ask), sent early, and taken by the scan as its
    first page: no second CorrectionWindow, no comparison of asks."""
    server = emulate()
    monkeypatch.chdir(tmp_path)
    options = build_options(repo="octo/demo", config_path=None, api_url=server.url)

    async def read() -> tuple[Any, EarlyRequest]:
        async with GitHubClient(server.url, "ghs_x") as client:
            early = EarlyRequest.send(client, first_ask(options))
            await early.left()
            outcome = await read_corrections(client, options, lambda _: None, first=early)
            return outcome, early

    outcome, early = asyncio.run(read())
    assert early.taken
    assert _operations(server).count("CorrectionWindow") == 1
    assert len(outcome.window) == 30


# The collector's state where the read connects first and where it writes corrections.md.
GC_PROBE = """
import gc, sys
seen = set()
def mark(event, args):
    if event == "socket.connect" and "connect" not in seen:
        seen.add("connect")
        sys.stderr.write(f"collector at the first connection: {gc.isenabled()}\\n")
    if event == "open" and "corrections.md" in str(args[0]) and "write" not in seen:
        seen.add("write")
        sys.stderr.write(f"collector at the write: {gc.isenabled()}, frozen {gc.get_freeze_count() > 0}\\n")
sys.addaudithook(mark)
sys.argv = ["corrections", "read", "--repo", "octo/demo", "--api-url", URL, "--out", "context"]
from corrections.commands.cli import {call}
{call}()
"""


@pytest.mark.parametrize(
    ("call", "loading", "writing"),
    [
        ("entry", "False", "True, frozen True"),  # the console script: paused, then frozen
        ("main", "True", "True, frozen False"),  # in process (the tests, the bench): as it was
    ],
)
def test_a_console_script_reads_without_the_collector_until_the_reader_is_in(
    emulate: Emulators, tmp_path: Path, call: str, loading: str, writing: str
) -> None:
    """The modules' objects live as long as the process: collecting among them while they load
    found nothing to free and cost about a tenth of a read's CPU (commandline/process.py)."""
    server = emulate()
    code = GC_PROBE.replace("URL", repr(server.url)).replace("{call}", call)
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "GITHUB_TOKEN": "ghs_x"},
        timeout=120,
    )
    assert f"collector at the first connection: {loading}" in done.stderr, done.stderr[-2000:]
    assert f"collector at the write: {writing}" in done.stderr, done.stderr[-2000:]
    assert (tmp_path / "context" / "corrections.md").is_file()
