""" "Not listed" is not READ: people GitHub's collaborator list leaves out are asked through REST.

GraphQL's `collaborators` lists the people added to a repository, its owner and organization
members, but not access through nested teams; REST `collaborators/{user}/permission` counts every
source of access. Where a permission decides (a 👎, a command, a duplicate decision) the reader
asks REST for the logins GraphQL did not list, and only for those.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from queries.client import GitHubClient
from queries.permissions import MAX_REST_LOOKUPS, fetch_permissions, fetch_permissions_rest
from tests.emulation import Emulators
from tests.reliability.test_trust import (
    analysis,
    at,
    corrections_of,
    first_analysis,
    issue,
    thumbs_down,
    world,
)

TEAMS = {"nia": "WRITE", "tess": "TRIAGE"}  # access through nested teams: GraphQL does not list them


def permission_lookups(server: Any) -> list[str]:
    """The logins REST was asked about, in order."""
    return [
        entry["path"].rsplit("/", 2)[-2]
        for entry in server.log()
        if entry["endpoint"] == "rest" and entry["path"].endswith("/permission")
    ]


def test_a_pusher_through_a_team_is_asked_through_rest(
    read_cli: Any, tmp_path: Path, emulate: Emulators
) -> None:
    """nia pushes through a team: her 👎 counts, and her comment on a duplicate notice is no objection."""
    dup_notice = {**first_analysis(2, []), "body": analysis([], duplicate_of=1)}
    issues = [
        issue(1, [first_analysis(1, ["bug"], thumbs_down("octo", "nia", "zed", "mara"))]),
        issue(
            2,
            [
                dup_notice,
                {"type": "comment", "id": 2_400_007_001, "author": "nia", "at": at(3), "body": "Looking."},
            ],
        ),
    ]
    server = emulate(world(issues, team_access=TEAMS, collaborators_via_graphql="allowed"))
    run = read_cli(server.url, tmp_path, repo="octo/trust")
    asked = permission_lookups(server)
    assert run.status == 0 and run.json()["note"] is None
    found = corrections_of(run)
    # octo (the owner, listed as ADMIN), nia (WRITE through a team) and mara (ADMIN) push; zed reads.
    assert found[1]["thumbs_down"] == 3
    assert 2 not in found, "a maintainer's comment is no objection"
    # nia's comment was asked of GraphQL's list (not listed) and the 👎, first seen in the details
    # round, go to REST directly, beside nothing else: each login once, no GraphQL round for them.
    assert sorted(asked) == ["mara", "nia", "octo", "zed"]
    assert [e["operation"] for e in server.log() if e["endpoint"] == "graphql"] == [
        "CorrectionWindow",
        "CorrectionDetails",
    ]


def test_sync_reads_unlisted_and_unknown_logins_through_rest(emulate: Emulators) -> None:
    issues = [issue(1, [first_analysis(1, [], thumbs_down("zed"))])]
    logins = ["nia", "tess", "octo", "rita", "zed", "nobody-at-all"]

    async def read(url: str) -> tuple[dict[str, str], list[str]]:
        async with GitHubClient(url, "t0ken") as client:
            return await fetch_permissions(client, "octo", "trust", logins)

    server = emulate(world(issues, team_access=TEAMS, collaborators_via_graphql="allowed"))
    found, unknown = asyncio.run(read(server.url))
    asked = permission_lookups(server)
    assert unknown == []
    assert found == {
        "nia": "WRITE",
        "tess": "TRIAGE",
        "octo": "ADMIN",  # the owner, listed by GraphQL
        "rita": "READ",  # listed as READ
        "zed": "READ",  # exists, no grant
        "nobody-at-all": "NONE",  # REST answers 404 for a login that does not exist
    }
    assert sorted(asked) == ["nia", "nobody-at-all", "tess", "zed"]


def test_rest_look_ups_are_capped(emulate: Emulators) -> None:
    """At most MAX_REST_LOOKUPS requests in one call; the logins past the cap count as not read."""
    logins = [f"person{i:03d}" for i in range(MAX_REST_LOOKUPS + 3)]

    async def read(url: str) -> tuple[dict[str, str], list[str]]:
        async with GitHubClient(url, "t0ken") as client:
            return await fetch_permissions_rest(client, "octo", "trust", logins)

    server = emulate(world([issue(1, [first_analysis(1, [])])]))
    found, unknown = asyncio.run(read(server.url))
    asked = permission_lookups(server)
    assert len(asked) == len(found) == MAX_REST_LOOKUPS
    assert set(found.values()) == {"NONE"}  # none of them exists: 404
    assert unknown == logins[MAX_REST_LOOKUPS:]
