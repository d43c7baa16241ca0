"""updateRef, deleteRef and pull requests filtered by head and base branch."""

from __future__ import annotations

import base64
from typing import Any

from emulator import Server

REPO = 'repository(owner: "octo", name: "demo")'
COMMIT = """mutation($head: GitObjectID!, $text: Base64String!) { createCommitOnBranch(input: {
  branch: {repositoryNameWithOwner: "octo/demo", branchName: "side"}, expectedHeadOid: $head,
  message: {headline: "change"}, fileChanges: {additions: [{path: "x.txt", contents: $text}]}
}) { commit { oid } } }"""


def _branch(gql: Any) -> tuple[str, str, str]:
    """Create branch `side` at main's head; (repository id, ref id, main's oid)."""
    data = gql(f"{{ {REPO} {{ id defaultBranchRef {{ target {{ oid }} }} }} }}")["data"]["repository"]
    head = data["defaultBranchRef"]["target"]["oid"]
    created = gql(
        "mutation($r: ID!, $oid: GitObjectID!) { createRef(input: {repositoryId: $r, "
        'name: "refs/heads/side", oid: $oid}) { ref { id } } }',
        {"r": data["id"], "oid": head},
    )
    return data["id"], created["data"]["createRef"]["ref"]["id"], head


def test_update_ref_fast_forward_and_force(emulator: Server, gql: Any) -> None:
    _, ref_id, head = _branch(gql)
    text = base64.b64encode(b"x\n").decode()
    moved = gql(COMMIT, {"head": head, "text": text})["data"]["createCommitOnBranch"]["commit"]["oid"]
    update = (
        "mutation($id: ID!, $oid: GitObjectID!, $force: Boolean) { updateRef(input: "
        "{refId: $id, oid: $oid, force: $force}) { ref { name target { oid } } } }"
    )
    refused = gql(update, {"id": ref_id, "oid": head, "force": False})
    assert refused["data"]["updateRef"] is None
    assert refused["errors"][0]["message"] == "Update is not a fast forward"
    assert emulator.state()["heads"]["side"] == moved
    forced = gql(update, {"id": ref_id, "oid": head, "force": True})
    assert forced["data"]["updateRef"]["ref"] == {"name": "side", "target": {"oid": head}}
    assert emulator.state()["heads"]["side"] == head


def test_delete_ref(emulator: Server, gql: Any) -> None:
    _, ref_id, _ = _branch(gql)
    assert "side" in emulator.state()["heads"]
    deleted = gql(
        "mutation($id: ID!) { deleteRef(input: {refId: $id}) { clientMutationId } }", {"id": ref_id}
    )
    assert deleted == {"data": {"deleteRef": {"clientMutationId": None}}}
    assert "side" not in emulator.state()["heads"]
    again = gql("mutation($id: ID!) { deleteRef(input: {refId: $id}) { clientMutationId } }", {"id": ref_id})
    assert again["errors"][0]["type"] == "NOT_FOUND"


def test_pull_requests_by_head_and_base(emulator: Server, gql: Any) -> None:
    repo_id, _, head = _branch(gql)
    gql(COMMIT, {"head": head, "text": base64.b64encode(b"y\n").decode()})
    opened = gql(
        'mutation($r: ID!) { createPullRequest(input: {repositoryId: $r, baseRefName: "main", '
        'headRefName: "side", title: "t"}) { pullRequest { number } } }',
        {"r": repo_id},
    )["data"]["createPullRequest"]["pullRequest"]["number"]
    query = (
        f"query($head: String, $base: String) {{ {REPO} {{ pullRequests(first: 10, headRefName: $head, "
        "baseRefName: $base, states: OPEN) { nodes { number headRefName } } } }"
    )
    every = gql(query)["data"]["repository"]["pullRequests"]["nodes"]
    assert len(every) > 1
    side = gql(query, {"head": "side", "base": "main"})["data"]["repository"]["pullRequests"]["nodes"]
    assert side == [{"number": opened, "headRefName": "side"}]
    assert gql(query, {"head": "side", "base": "other"})["data"]["repository"]["pullRequests"]["nodes"] == []
