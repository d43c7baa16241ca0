"""The aiohttp application: GraphQL, REST, ``/_emulator/*``, with latency, faults and a request log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from aiohttp import web
from graphql import GraphQLSyntaxError, parse

from emulator.execution import Budgets, Executor, operation_name
from emulator.faults import FaultError, FaultPlan, PartialFault, canned, request_id, truncate_body
from emulator.rest import RestApi, request_token
from emulator.schema import load_current_schema
from emulator.store import Store, store_from

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
ENTRY = web.RequestKey("entry", dict)
# A `partial` fault that fired on this request: the GraphQL executor meets it (emulator.faults).
PARTIAL = web.RequestKey("partial", PartialFault)
# REST requests an hour: 5,000 for a user's token, 1,000 for a workflow's GITHUB_TOKEN (the
# token of `github-actions`), per GitHub's "Rate limits for the REST API".
REST_LIMIT = 5000
# GraphQL points an hour of a user's token (a workflow's: emulator.execution.GITHUB_TOKEN_POINTS).
GRAPHQL_LIMIT = 5000
GITHUB_TOKEN_REST_LIMIT = 1000
ACTIONS_LOGIN = "github-actions"
NEEDS_AUTH = {
    "message": "This endpoint requires you to be authenticated.",
    "documentation_url": "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql",
}


def _operation_of(body: bytes) -> str | None:
    """The operation name of a GraphQL body (``operationName`` or the document's only operation)."""
    try:
        payload = json.loads(body)
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    if payload.get("operationName"):
        return str(payload["operationName"])
    query = payload.get("query")
    if not isinstance(query, str):
        return None
    try:
        operation = operation_name(parse(query), None)
    except GraphQLSyntaxError:
        return None
    return operation.name.value if operation and operation.name else None


class Server:
    """A running emulator: its addresses, the world now, the log, the faults."""

    def __init__(self, store: Store, latency_ms: int = 0) -> None:
        self.store = store
        self.latency_ms = latency_ms or store.file.latency_ms
        self.faults = FaultPlan(store.file.faults)
        rate = store.file.rate_limit
        # A world without a `limit` gives each token GitHub's own: 5,000 points an hour, and
        # 1,000 for the repository's workflow tokens together (logins `github-actions`).
        self.graphql_budgets = Budgets(
            rate.limit if rate.limit is not None else GRAPHQL_LIMIT,
            rate.remaining,
            rate.reset_in_s,
            workflow=None if rate.limit is not None else self._is_workflow_token,
            clock=lambda: self.store.file.now,
        )
        self.rest_budgets = Budgets(REST_LIMIT, None, 3600)
        self.actions_rest_budgets = Budgets(GITHUB_TOKEN_REST_LIMIT, None, 3600)
        self.executor = Executor(load_current_schema(), store, self.graphql_budgets)
        self.rest = RestApi(store)
        self.entries: list[dict[str, Any]] = []
        # Keep each request's query string and body in its log entry (the bench replays them).
        self.keep_requests = False
        self.stopping = asyncio.Event()
        self.base_url = ""
        self.url = ""

    def _is_workflow_token(self, token: str) -> bool:
        return self.store.viewer_login(token).lower().removesuffix("[bot]") == ACTIONS_LOGIN

    def state(self) -> dict[str, Any]:
        """The world as it is now, in the world format."""
        return self.store.dump()

    def log(self) -> list[dict[str, Any]]:
        """One dict per request served (GraphQL and REST)."""
        return list(self.entries)

    def set_faults(self, specs: list[dict[str, Any]]) -> None:
        """Replace the fault list; raises FaultError."""
        self.faults.replace(specs)

    def app(self) -> web.Application:
        """The aiohttp application."""
        app = web.Application(
            middlewares=[self._middleware, self._rest_headers], client_max_size=32 * 1024 * 1024
        )
        app.add_routes(
            [
                web.post("/graphql", self._graphql),
                web.post("/api/graphql", self._graphql),
                web.get("/_emulator/state", self._state),
                web.get("/_emulator/log", self._log),
                web.post("/_emulator/faults", self._set_faults),
                *self.rest.routes(),
            ]
        )
        return app

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith("/_emulator/"):
            return await handler(request)
        started = time.perf_counter()
        graphql = request.path.endswith("/graphql")
        body = await request.read()
        operation = _operation_of(body) if graphql else None
        entry: dict[str, Any] = {
            "endpoint": "graphql" if graphql else "rest",
            "method": request.method,
            "path": request.path,
            "operation": operation,
            "status": None,
            "cost": 0,
            "nodes": 0,
            "bytes": 0,
            "duration_ms": 0,
            "fault": None,
            # The emulator's clock (seconds, time.perf_counter) when the request arrived and when
            # its answer was ready: which requests waited for which (dependent waves).
            "start_s": started,
            "end_s": started,
        }
        if self.keep_requests:
            entry["query_string"] = request.query_string
            entry["body"] = body.decode("utf-8", "replace")
        request[ENTRY] = entry
        try:
            if self.latency_ms:
                await asyncio.sleep(self.latency_ms / 1000)
            fault = self.faults.pick(entry["endpoint"], operation)
            response: web.StreamResponse
            if fault is not None:
                entry["fault"] = fault.kind
                if fault.kind == "hang":
                    await self.stopping.wait()
                    raise ConnectionResetError("emulator stopped while hanging")
                if fault.kind == "reset":
                    if request.transport is not None:
                        request.transport.abort()
                    raise ConnectionResetError("connection reset by fault")
                ready = canned(fault, self.store.viewer_login(request_token(request) or ""))
                if fault.kind == "partial":
                    request[PARTIAL] = PartialFault(fault)
                if ready is not None:
                    response = ready
                else:
                    response = await handler(request)
                    if (
                        fault.kind == "truncated"
                        and isinstance(response, web.Response)
                        and isinstance(response.body, bytes)
                    ):
                        response.body = truncate_body(response.body)
            else:
                response = await handler(request)
            entry["status"] = response.status
            length = getattr(response, "body", None)
            entry["bytes"] = len(length) if isinstance(length, bytes) else 0
            return response
        finally:
            entry["end_s"] = time.perf_counter()
            entry["duration_ms"] = round((entry["end_s"] - started) * 1000, 3)
            self.entries.append(entry)

    @web.middleware
    async def _rest_headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        if request.path.startswith("/repos/"):
            token = request_token(request) or "anonymous"
            actions = self.store.viewer_login(token) == ACTIONS_LOGIN
            budget = (self.actions_rest_budgets if actions else self.rest_budgets).charge(token, 1)
            response.headers.update(
                {
                    "x-ratelimit-limit": str(budget.limit),
                    "x-ratelimit-remaining": str(budget.remaining),
                    "x-ratelimit-used": str(budget.used),
                    "x-ratelimit-reset": str(budget.reset_at),
                    "x-ratelimit-resource": "core",
                }
            )
        return response

    async def _graphql(self, request: web.Request) -> web.Response:
        token = request_token(request)
        if token is None:
            return web.json_response(NEEDS_AUTH, status=401)
        try:
            payload = json.loads(await request.read())
        except ValueError:
            return web.json_response(
                {"message": "Problems parsing JSON", "documentation_url": "https://docs.github.com/graphql"},
                status=400,
            )
        answer = self.executor.run(payload, token, request.get(PARTIAL))
        entry = request[ENTRY]
        entry.update(operation=answer.operation or entry["operation"], cost=answer.cost, nodes=answer.nodes)
        model = self.store.file.server_time
        if model is not None:
            entry.update(server_ms=round(answer.server_ms, 3), timed_out=answer.timed_out)
            if model.sleep_scale:
                await asyncio.sleep(answer.server_ms * model.sleep_scale / 1000)
        budget = answer.budget or self.graphql_budgets.peek(token)
        headers = {
            "x-ratelimit-limit": str(budget.limit),
            "x-ratelimit-remaining": str(budget.remaining),
            "x-ratelimit-used": str(budget.used),
            "x-ratelimit-reset": str(budget.reset_at),
            "x-ratelimit-resource": "graphql",
            "X-GitHub-Request-Id": request_id(),
        }
        text = json.dumps(answer.body, ensure_ascii=False)
        return web.Response(text=text, status=answer.status, content_type="application/json", headers=headers)

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self.state())

    async def _log(self, request: web.Request) -> web.Response:
        return web.json_response(self.log())

    async def _set_faults(self, request: web.Request) -> web.Response:
        try:
            self.set_faults(await request.json())
        except (FaultError, ValueError) as error:
            return web.json_response({"message": str(error)}, status=400)
        return web.json_response({"faults": len(self.faults.faults)})


@contextlib.asynccontextmanager
async def serve(
    world: Any, *, host: str = "127.0.0.1", port: int = 0, latency_ms: int = 0
) -> AsyncIterator[Server]:
    """Run the emulator on host:port (0 = any free port) until the block ends.

    ``world`` is a dict, a path, a WorldFile or a Store. Raises WorldError for a bad world.
    """
    server = Server(store_from(world), latency_ms)
    app = server.app()
    runner = web.AppRunner(
        app, handle_signals=False, access_log=None, handler_cancellation=True, shutdown_timeout=1.0
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    server.base_url = f"http://{host}:{bound}"
    server.url = f"{server.base_url}/graphql"
    try:
        yield server
    finally:
        server.stopping.set()
        await runner.cleanup()


@contextlib.contextmanager
def serve_in_thread(
    world: Any, *, host: str = "127.0.0.1", port: int = 0, latency_ms: int = 0
) -> Iterator[Server]:
    """``serve`` on its own event loop in a thread, for synchronous callers (a CLI that runs asyncio.run)."""
    ready = threading.Event()
    holder: dict[str, Any] = {}

    async def main() -> None:
        holder["stop"] = asyncio.Event()
        try:
            async with serve(world, host=host, port=port, latency_ms=latency_ms) as server:
                holder["server"] = server
                ready.set()
                await holder["stop"].wait()
        except BaseException as error:
            holder["error"] = error
            ready.set()

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True, name="emulator")
    thread.start()
    ready.wait()
    if "error" in holder:
        thread.join()
        loop.close()
        raise holder["error"]
    try:
        yield holder["server"]
    finally:
        loop.call_soon_threadsafe(holder["stop"].set)
        thread.join(timeout=10)
        loop.close()
