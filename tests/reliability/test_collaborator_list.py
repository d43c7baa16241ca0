"""REST's whole collaborator list, asked by a maintainer's command: one request for everyone.

Given (a token that may push), it answers every login: a listed one has its role, one absent from
the complete list at most READ. Refused (a workflow's token) it changes nothing: the per-login
path answers as it would have. Read at most MAX_LIST_PAGES pages; past them, per login.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from queries import permissions
from queries.client import GitHubClient
from queries.errors import BadResponse, PermissionDenied
from queries.permissions import CollaboratorList, fetch_collaborator_list, fetch_permissions
from tests.emulation import Emulators
from tests.reliability.test_trust import corrections_of, first_analysis, issue, thumbs_down, world
from tests.reliability.test_unlisted_permissions import TEAMS, permission_lookups

LOGINS = ["nia", "tess", "octo", "rita", "zed", "nobody-at-all"]
MAINTAINER = "maras-token"  # the world's `tokens` make it mara's (ADMIN)


def _world(**extra: Any) -> dict[str, Any]:
    extra.setdefault("tokens", {MAINTAINER: "mara"})
    return world([issue(1, [first_analysis(1, [])])], team_access=TEAMS, **extra)


def _read(url: str, token: str, *, listing: bool = True) -> tuple[dict[str, str], list[str]]:
    async def read() -> tuple[dict[str, str], list[str]]:
        async with GitHubClient(url, token) as client:
            return await fetch_permissions(client, "octo", "trust", LOGINS, collaborator_list=listing)

    return asyncio.run(read())


def _requests(server: Any) -> list[str]:
    return [f"{entry['endpoint']} {entry['path']}" for entry in server.log()]


def test_the_list_answers_everyone_in_one_request(emulate: Emulators) -> None:
    server = emulate(_world())
    found, unknown = _read(server.url, MAINTAINER)
    assert unknown == []
    assert found == {
        "nia": "WRITE",  # through a team: the list counts every grant
        "tess": "TRIAGE",
        "octo": "ADMIN",
        "rita": "READ",
        "zed": "READ",  # absent from the complete list: at most READ
        "nobody-at-all": "READ",
    }
    assert _requests(server) == ["rest /repos/octo/trust/collaborators"]


def test_a_refused_list_leaves_the_per_login_path_as_it_was(emulate: Emulators) -> None:
    """The world's viewer (github-actions, a workflow's token) may not list: 403, then the same
    answers and look-ups as without asking the list."""
    server = emulate(_world(collaborators_via_graphql="allowed"))
    found, unknown = _read(server.url, "t0ken")
    without = emulate(_world(collaborators_via_graphql="allowed"))
    assert (found, unknown) == _read(without.url, "t0ken", listing=False)
    assert [e["status"] for e in server.log() if e["path"].endswith("/collaborators")] == [403]
    assert sorted(permission_lookups(server)) == sorted(permission_lookups(without))
    assert len(server.log()) == len(without.log()) + 1


def test_the_list_is_read_at_most_max_list_pages(emulate: Emulators, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut at its page cap, the list answers those it listed; the others are asked one by one."""
    people = {f"person{index:03d}": "WRITE" for index in range(150)}
    server = emulate(_world(permissions={"mara": "ADMIN", **people}))
    monkeypatch.setattr(permissions, "MAX_LIST_PAGES", 1)

    async def read() -> tuple[CollaboratorList, tuple[dict[str, str], list[str]]]:
        async with GitHubClient(server.url, MAINTAINER) as client:
            cut = await fetch_collaborator_list(client, "octo", "trust")
            logins = ["person000", "person149", "dave"]
            return cut, await fetch_permissions(client, "octo", "trust", logins, collaborator_list=True)

    cut, (found, unknown) = asyncio.run(read())
    assert not cut.complete and len(cut.levels) == permissions.LIST_PAGE_SIZE
    assert cut.answer(["person000", "person149"]) == ({"person000": "WRITE"}, ["person149"])
    assert unknown == [] and found == {"person000": "WRITE", "person149": "WRITE", "dave": "READ"}
    # The list's first page, then GraphQL (refused) and REST for the two it did not reach.
    assert sorted(permission_lookups(server)) == ["dave", "person149"]


def test_every_page_is_read_by_its_link(emulate: Emulators) -> None:
    people = {f"person{index:03d}": "READ" for index in range(250)}
    server = emulate(_world(permissions={"mara": "ADMIN", **people}))

    async def read() -> CollaboratorList:
        async with GitHubClient(server.url, MAINTAINER) as client:
            return await fetch_collaborator_list(client, "octo", "trust")

    listed = asyncio.run(read())
    assert listed.complete and len(listed.levels) == 254  # with the owner, mara and the two teams' people
    paths = [e["path"] for e in server.log()]
    assert paths == ["/repos/octo/trust/collaborators"] * 3


def test_a_refused_list_raises_through_the_one_root(emulate: Emulators) -> None:
    server = emulate(_world())

    async def read() -> CollaboratorList:
        async with GitHubClient(server.url, "t0ken") as client:
            return await fetch_collaborator_list(client, "octo", "trust")

    with pytest.raises(PermissionDenied):
        asyncio.run(read())


def test_a_read_never_asks_the_list_even_with_a_token_that_may(
    read_cli: Any, tmp_path: Path, emulate: Emulators
) -> None:
    """`corrections read` (the action's step) runs with a workflow's token, which is refused the
    list: it never asks it, so a refused request is never paid; only the backtest does."""
    issues = [issue(1, [first_analysis(1, ["bug"], thumbs_down("nia", "zed"))])]
    server = emulate(world(issues, team_access=TEAMS, tokens={MAINTAINER: "mara"}))
    run = read_cli(server.url, tmp_path, repo="octo/trust", token=MAINTAINER)
    assert run.status == 0 and corrections_of(run)[1]["thumbs_down"] == 1  # nia, through a team
    assert not [e for e in server.log() if e["path"].endswith("/collaborators")]
    assert sorted(permission_lookups(server)) == ["nia", "zed"]


def test_a_next_link_off_the_api_root_is_not_followed() -> None:
    """A `Link` to another host would carry the token there: the page is a BadResponse instead."""
    elsewhere: list[str] = []

    async def other(request: web.Request) -> web.Response:
        elsewhere.append(request.headers.get("Authorization", ""))
        return web.json_response([])

    async def run() -> None:
        other_site, other_runner = await _serve(web.get("/{tail:.*}", other))
        link = f'<{other_site}/repos/octo/trust/collaborators?page=2>; rel="next"'

        async def first(request: web.Request) -> web.Response:
            return web.json_response([{"login": "mara", "role_name": "admin"}], headers={"Link": link})

        root, runner = await _serve(web.get("/repos/octo/trust/collaborators", first))
        try:
            async with GitHubClient(root + "/graphql", "secret-token") as client:
                with pytest.raises(BadResponse):
                    await fetch_collaborator_list(client, "octo", "trust")
        finally:
            await runner.cleanup()
            await other_runner.cleanup()

    asyncio.run(run())
    assert elsewhere == []


async def _serve(route: web.RouteDef) -> tuple[str, web.AppRunner]:
    """A local HTTP server with one route: its root URL and its runner (to clean up)."""
    app = web.Application()
    app.add_routes([route])
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    return f"http://{host}:{port}", runner
