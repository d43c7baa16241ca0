"""The token never shows: not on stdout or stderr, not in a written file, not in any exception."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from emulator import Server
from queries.client import GitHubClient
from queries.errors import GitHubError
from queries.fetch import fetch_window_page
from queries.requests import WindowAsk
from queries.retry import RetryPolicy
from tests.emulation import DEMO, Emulators

ROOT = Path(__file__).resolve().parent.parent.parent
TOKEN = "ghp_R3liab1lityCanaryT0ken9f8e7d6c5b4a"  # the same as conftest.TOKEN
FAULTS: list[list[dict[str, Any]]] = [
    [],
    [{"kind": "bad_credentials", "times": None}],
    [{"kind": "timeout_502", "times": None}],
    [{"kind": "html_502", "times": None}],
    [{"kind": "status_500", "times": None}],
    [{"kind": "secondary_limit", "times": None, "retry_after": 100}],
    [{"kind": "rate_limited", "times": None}],
    [{"kind": "non_json", "times": None}],
    [{"kind": "reset", "times": None}],
    [{"kind": "hang", "times": None}],
    [{"kind": "malformed", "times": None}],
    [{"kind": "bad_credentials", "operation": "CorrectionDetails", "times": None}],
]


def fault_id(faults: list[dict[str, Any]]) -> str:
    return f"{faults[0]['kind']}-{faults[0].get('operation', 'all')}" if faults else "none"


def everything_written(out: Path) -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(out.rglob("*")) if path.is_file())


def exception_text(error: BaseException) -> str:
    """The text of an exception and of every exception behind it, attributes included."""
    parts: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        parts += [str(current), repr(current), repr(current.args)]
        parts += [repr(value) for value in vars(current).values()]
        current = current.__cause__ or current.__context__
    return "\n".join(parts)


@pytest.mark.parametrize("faults", FAULTS, ids=fault_id)
def test_token_never_in_output_files_or_logs(
    faults: list[dict[str, Any]], demo_server: Server, read_cli: Any, tmp_path: Path
) -> None:
    demo_server.set_faults(faults)
    try:
        run = read_cli(demo_server.url, tmp_path, budget=0.6 if faults else 5.0, token=TOKEN)
    finally:
        demo_server.set_faults([])
    assert run.status == 0
    for where, text in {
        "stdout": run.stdout,
        "stderr": run.stderr,
        "files": everything_written(tmp_path),
        "emulator log": json.dumps(demo_server.log()),
    }.items():
        assert TOKEN not in text, f"the token is in {where}"


def test_token_never_in_the_rest_fallback_or_refused_connections(
    read_cli: Any, tmp_path: Path, closed_port_url: str, emulate: Emulators
) -> None:
    server = emulate(
        DEMO,
        collaborators_via_graphql="forbidden",
        faults=[{"kind": "status_500", "endpoint": "rest", "times": None}],
    )
    run = read_cli(server.url, tmp_path / "rest", budget=1.5, token=TOKEN)
    refused = read_cli(closed_port_url, tmp_path / "refused", budget=0.5, token=TOKEN)
    for outcome in (run, refused):
        assert outcome.status == 0
        assert TOKEN not in outcome.stdout + outcome.stderr + everything_written(outcome.out)


@pytest.mark.parametrize("faults", [f for f in FAULTS[1:] if "operation" not in f[0]], ids=fault_id)
def test_token_never_in_an_exception(faults: list[dict[str, Any]], demo_server: Server) -> None:
    demo_server.set_faults(faults)

    async def fail() -> GitHubError:
        async with GitHubClient(demo_server.url, TOKEN, policy=RetryPolicy.for_budget(0.6)) as client:
            try:
                ask = WindowAsk(owner="octo", name="demo", after=None, page_size=5, timeline_size=100)
                await fetch_window_page(client, ask)
            except GitHubError as error:
                return error
        raise AssertionError("no failure")

    try:
        error = asyncio.run(fail())
    finally:
        demo_server.set_faults([])
    assert TOKEN not in exception_text(error)
