"""The conformance check's recording half: a loopback proxy in front of GitHub (or the emulator)
that keeps every request the product's commands send and every answer, normalised.

`record(api_url, repo, token, scratch)` starts the proxy on 127.0.0.1, runs each step of the
scenario (tests/conformance/scenario.py) as its own process with `--api-url` pointing at the
proxy, and returns each step's exchanges: the endpoint, the GraphQL operation and variables or
the REST method and path, the status, the headers the product reads and the answer, normalised
by `shapes.Normaliser`. GraphQL goes to `api_url`, REST to the root that belongs to it
(https://api.github.com for https://api.github.com/graphql); a `Link` header's URLs are turned
back to the proxy, so pagination is recorded too. The token reaches the commands through their
environment (GITHUB_TOKEN) and is never written down: requests are recorded without headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from queries.client import rest_base_url
from tests.conformance.scenario import SCENARIO, Step
from tests.conformance.shapes import Normaliser

FORWARDED = ("accept", "authorization", "content-type", "user-agent", "x-github-api-version")
STEP_TIMEOUT_S = 600
ROOT = Path(__file__).resolve().parents[2]

# How a step is run: `python ARGV` (`-m PROGRAM ...`) in a folder with an environment; its exit status.
Runner = Callable[[list[str], Path, dict[str, str]], int]


def run_process(argv: list[str], cwd: Path, environment: dict[str, str]) -> int:
    """A step as its own process, as a user types it (what the conformance workflow runs)."""
    done = subprocess.run(
        [sys.executable, *argv],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
        check=False,
    )
    return done.returncode


@dataclass
class Recording:
    """One step's exchanges, in the order their answers came, and how its command ended."""

    step: str
    command: list[str]
    exit_status: int | None = None
    exchanges: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self, source: dict[str, str]) -> dict[str, Any]:
        """The recording file's content."""
        return {
            "source": source,
            "step": self.step,
            "command": self.command,
            "exit_status": self.exit_status,
            "exchanges": self.exchanges,
        }


class Proxy:
    """Forwards each request to GitHub's endpoint and keeps the exchange in the current step."""

    def __init__(self, api_url: str, repo: str) -> None:
        self.graphql_url = api_url
        self.rest_root = rest_base_url(api_url).rstrip("/")
        self.repo = repo
        self.base = ""  # the proxy's own root, once listening
        self.current: Recording | None = None
        self.normaliser = Normaliser(repo)
        self._session: aiohttp.ClientSession | None = None

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        graphql = request.method == "POST" and request.path.rstrip("/").endswith("/graphql")
        target = self.graphql_url if graphql else self.rest_root + request.path_qs
        headers = {k: v for k, v in request.headers.items() if k.lower() in FORWARDED}
        assert self._session is not None
        async with self._session.request(
            request.method, target, data=body or None, headers=headers
        ) as answer:
            content = await answer.read()
            kept = {k: v for k, v in answer.headers.items() if k.lower() in ("content-type", "retry-after")}
            kept.update((k, v) for k, v in answer.headers.items() if k.lower().startswith("x-ratelimit-"))
            if "Link" in answer.headers:
                kept["Link"] = answer.headers["Link"].replace(self.rest_root, self.base)
            self._keep(
                request,
                body,
                graphql=graphql,
                status=answer.status,
                headers=dict(answer.headers),
                content=content,
            )
            return web.Response(status=answer.status, body=content, headers=kept)

    def _keep(
        self,
        request: web.Request,
        body: bytes,
        *,
        graphql: bool,
        status: int,
        headers: dict[str, str],
        content: bytes,
    ) -> None:
        if self.current is None:
            return
        norm = self.normaliser
        try:
            answer: Any = json.loads(content) if content else None
        except ValueError:
            answer = {"(not JSON)": content[:200].decode("utf-8", "replace")}
        exchange: dict[str, Any]
        if graphql:
            try:
                payload = json.loads(body)
            except ValueError:
                payload = {}
            exchange = {
                "endpoint": "graphql",
                "operation": _operation(payload),
                "variables": norm.value("variables", payload.get("variables") or {}),
            }
        else:
            exchange = {
                "endpoint": "rest",
                "method": request.method,
                "path": norm.path(request.path, dict(request.query)),
            }
        exchange.update(status=status, headers=norm.headers(headers), response=norm.value("", answer))
        self.current.exchanges.append(exchange)

    @contextlib.contextmanager
    def running(self) -> Iterator[Proxy]:
        """The proxy listening on 127.0.0.1 in a thread of its own, until the block ends."""
        ready = threading.Event()
        stop: dict[str, asyncio.Event] = {}
        failure: list[BaseException] = []

        async def main() -> None:
            stop["event"] = asyncio.Event()
            app = web.Application(client_max_size=64 * 1024 * 1024)
            app.router.add_route("*", "/{tail:.*}", self.handle)
            runner = web.AppRunner(app, access_log=None)
            try:
                async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as session:
                    self._session = session
                    await runner.setup()
                    site = web.TCPSite(runner, "127.0.0.1", 0)
                    await site.start()
                    port = runner.addresses[0][1]
                    self.base = f"http://127.0.0.1:{port}"
                    ready.set()
                    await stop["event"].wait()
            except BaseException as error:
                failure.append(error)
                ready.set()
            finally:
                await runner.cleanup()

        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True, name="proxy")
        thread.start()
        ready.wait()
        if failure:
            thread.join()
            loop.close()
            raise failure[0]
        try:
            yield self
        finally:
            loop.call_soon_threadsafe(stop["event"].set)
            thread.join(timeout=10)
            loop.close()


def _operation(payload: Any) -> str | None:
    """The operation a GraphQL body names (`operationName`, else the document's first `query X`
    or `mutation X`)."""
    if not isinstance(payload, dict):
        return None
    if payload.get("operationName"):
        return str(payload["operationName"])
    words = str(payload.get("query") or "").replace("(", " ").replace("{", " ").split()
    for index, word in enumerate(words[:-1]):
        if word in ("query", "mutation"):
            return words[index + 1]
    return None


def record(
    api_url: str,
    repo: str,
    token: str,
    scratch: Path,
    steps: tuple[Step, ...] = SCENARIO,
    *,
    progress: Any = None,
    run: Runner = run_process,
) -> list[Recording]:
    """Run the scenario through the proxy; each step's exchanges, normalised (one numbering per step).

    Each step is its own process unless `run` says otherwise (tests/conformance/test_conformance_check.py
    runs its second pass through the commands' `main`)."""
    proxy = Proxy(api_url, repo)
    recordings: list[Recording] = []
    environment = {k: v for k, v in os.environ.items() if k not in ("GITHUB_TOKEN", "GH_TOKEN")}
    environment.update(GITHUB_TOKEN=token, PYTHONPATH=str(ROOT))
    environment.pop("GITHUB_ACTIONS", None)  # the commands run as at a terminal, whatever runs them
    with proxy.running():
        for step in steps:
            argv = step.argv(repo=repo, api_url=f"{proxy.base}/graphql", out=scratch)
            shown = step.argv(repo="OWNER/REPO", api_url="API_URL", out=Path("OUT"))
            recording = Recording(step.name, [step.program, *shown[2:]])
            proxy.current = recording
            proxy.normaliser = Normaliser(repo)
            scratch.mkdir(parents=True, exist_ok=True)
            where = scratch
            (scratch / step.name).mkdir(parents=True, exist_ok=True)
            if step.checkout:
                where = scratch / step.name
                where.mkdir(parents=True, exist_ok=True)
                subprocess.run(["git", "init", "-q", str(where)], check=True, timeout=60)
            status = run(
                argv,
                where,
                {**environment, **step.env(repo=repo, api_url=f"{proxy.base}/graphql", out=scratch)},
            )
            recording.exit_status = status
            proxy.current = None
            recordings.append(recording)
            if progress is not None:
                progress(f"{step.name}: exit {status}, {len(recording.exchanges)} exchanges")
    return recordings
