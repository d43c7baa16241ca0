"""REST's whole collaborator list, asked by a maintainer's command: one request for everyone it lists.

A listed login has its role; one absent from it is asked one by one, since no list proves an
absence: GitHub gives a workflow's GITHUB_TOKEN 200 with the directly added collaborators only, no
team grant (actions/runner#2519: "I only receive … the 1 individual added directly without any
members from teams"; pullpreview/action#96, zephyrproject-rtos/zephyr#90352), so a workflow's
token and a pusher's give the same answers. Refused (a token without push access) it changes
nothing: the per-login path answers as it would have. Read at most MAX_LIST_PAGES pages.
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


def test_the_list_answers_everyone_it_lists_and_the_others_are_asked(emulate: Emulators) -> None:
    server = emulate(_world())
    found, unknown = _read(server.url, MAINTAINER)
    assert unknown == []
    assert found == {
        "nia": "WRITE",  # through a team: a pusher's list counts every grant
        "tess": "TRIAGE",
        "octo": "ADMIN",
        "rita": "READ",
        "zed": "NONE",  # absent from the list: asked (no such account here: 404)
        "nobody-at-all": "NONE",
    }
    assert _requests(server)[0] == "rest /repos/octo/trust/collaborators"
    assert sorted(permission_lookups(server)) == ["nobody-at-all", "zed"]


def test_a_list_that_names_the_token_s_own_account_as_a_pusher_proves_absence() -> None:
    """A pusher's token is listed every grant (GitHub's REST reference, affiliation all): a list
    that is complete and names the token's own person with push access answers an absent login as
    READ. An app's or a workflow's token (`[bot]`), or a reader, proves nothing."""
    listed = CollaboratorList({"mara": "ADMIN", "rita": "READ"}, complete=True)
    assert listed.answer(["zed"]) == ({}, ["zed"])
    assert listed.proven_by("Mara").answer(["zed"]) == ({"zed": "READ"}, [])
    for viewer in ("github-actions[bot]", "rita", None):
        assert listed.proven_by(viewer).answer(["zed"]) == ({}, ["zed"])
    cut = CollaboratorList({"mara": "ADMIN"}, complete=False)
    assert cut.proven_by("mara").answer(["zed"]) == ({}, ["zed"])


def test_a_workflow_tokens_partial_list_gives_the_same_answers_as_a_pushers(emulate: Emulators) -> None:
    """A workflow's token (the Bot github-actions): GitHub lists it the direct collaborators only.
    The team grants it misses are asked one by one: nia's WRITE and tess's TRIAGE are not taken
    for READ, the answers are a pusher's."""
    server = emulate(_world(tokens={MAINTAINER: "mara", "workflow-token": "github-actions"}))
    workflow = _read(server.url, "workflow-token")
    listed = [e for e in server.log() if e["path"].endswith("/collaborators")]
    assert [e["status"] for e in listed] == [200]
    assert workflow == _read(server.url, MAINTAINER)
    assert workflow[0]["nia"] == "WRITE" and workflow[0]["tess"] == "TRIAGE"


def test_a_refused_list_leaves_the_per_login_path_as_it_was(emulate: Emulators) -> None:
    """A token without push access (rita's, READ) may not list: 403, then the same answers and
    look-ups as without asking the list."""
    tokens = {MAINTAINER: "mara", "ritas-token": "rita"}
    server = emulate(_world(collaborators_via_graphql="allowed", tokens=tokens))
    found, unknown = _read(server.url, "ritas-token")
    without = emulate(_world(collaborators_via_graphql="allowed", tokens=tokens))
    assert (found, unknown) == _read(without.url, "ritas-token", listing=False)
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
    server = emulate(_world(tokens={"ritas-token": "rita"}))

    async def read() -> CollaboratorList:
        async with GitHubClient(server.url, "ritas-token") as client:
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


def test_a_next_link_off_the_api_root_is_not_followed(retry_pauses: list[float]) -> None:
    """A `Link` to another host would carry the token there: the page is a BadResponse instead
    (retried as one, its waits not slept)."""
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
    assert len(retry_pauses) == 3, "a BadResponse is retried (4 attempts), the link never followed"


async def _serve(route: web.RouteDef) -> tuple[str, web.AppRunner]:
    """A local HTTP server with one route: its root URL and its runner (to clean up)."""
    app = web.Application()
    app.add_routes([route])
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    return f"http://{host}:{port}", runner
