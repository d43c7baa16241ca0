"""Mutations change the world, and /_emulator/state shows it; FORBIDDEN collaborators mode."""

from __future__ import annotations

import base64
from typing import Any

from emulator import Server
from tests.emulation import Emulators

REPO = 'repository(owner: "octo", name: "demo")'


def _ids(gql: Any) -> dict[str, Any]:
    data = gql(
        f"{{ {REPO} {{ id issue(number: 1) {{ id comments(first: 1) {{ nodes {{ id }} }} }} "
        "defaultBranchRef { target { oid } } } }"
    )["data"]["repository"]
    return {
        "repo": data["id"],
        "issue": data["issue"]["id"],
        "comment": data["issue"]["comments"]["nodes"][0]["id"],
        "head": data["defaultBranchRef"]["target"]["oid"],
    }


def test_branch_commit_and_pull_request(emulator: Server, gql: Any, client: Any) -> None:
    ids = _ids(gql)
    created = gql(
        "mutation($r: ID!, $oid: GitObjectID!) { createRef(input: {repositoryId: $r, "
        'name: "refs/heads/learnings", oid: $oid}) { ref { name target { oid } } } }',
        {"r": ids["repo"], "oid": ids["head"]},
    )
    assert created["data"]["createRef"]["ref"] == {"name": "learnings", "target": {"oid": ids["head"]}}
    commit = """mutation($head: GitObjectID!, $text: Base64String!) { createCommitOnBranch(input: {
      branch: {repositoryNameWithOwner: "octo/demo", branchName: "learnings"}, expectedHeadOid: $head,
      message: {headline: "Record learnings"},
      fileChanges: {additions: [{path: "a.jsonl", contents: $text}],
        deletions: [{path: ".github/assistant/learnings.jsonl"}]}
    }) { commit { oid } } }"""
    text = base64.b64encode(b'{"v": 1}\n').decode()
    done = gql(commit, {"head": ids["head"], "text": text})["data"]["createCommitOnBranch"]["commit"]["oid"]
    assert done != ids["head"]
    stale = gql(commit, {"head": ids["head"], "text": text})
    assert stale["data"]["createCommitOnBranch"] is None
    assert stale["errors"][0]["type"] == "STALE_DATA"
    assert stale["errors"][0]["message"] == (
        f'Expected branch to point to "{ids["head"]}" but it did not.  Pull and try again.'
    )
    pull = gql(
        'mutation($r: ID!) { createPullRequest(input: {repositoryId: $r, baseRefName: "main", '
        'headRefName: "learnings", title: "Learnings", body: "b"}) { pullRequest { id number '
        "author { login } } } }",
        {"r": ids["repo"]},
    )["data"]["createPullRequest"]["pullRequest"]
    assert pull["number"] == 5 and pull["author"]["login"] == "github-actions"
    updated = gql(
        'mutation($p: ID!) { updatePullRequest(input: {pullRequestId: $p, title: "Learnings 2"}) '
        "{ pullRequest { title } } }",
        {"p": pull["id"]},
    )
    assert updated["data"]["updatePullRequest"]["pullRequest"]["title"] == "Learnings 2"
    state = client("GET", emulator.base_url + "/_emulator/state").json()
    assert state["files"]["learnings"] == {
        ".github/assistant/labels.md": "- `bug`: broken\n- `enhancement`: new\n",
        "a.jsonl": '{"v": 1}\n',
    }
    assert state["heads"]["learnings"] == done
    assert state["pull_requests"][-1] | {"created_at": ""} == {
        "number": 5,
        "title": "Learnings 2",
        "body": "b",
        "author": "github-actions",
        "created_at": "",
        "base": "main",
        "head": "learnings",
        "timeline": [],
    }
    assert emulator.state() == state


def test_comment_edit_and_reaction(emulator: Server, gql: Any) -> None:
    ids = _ids(gql)
    added = gql(
        'mutation($s: ID!) { addComment(input: {subjectId: $s, body: "hello"}) { commentEdge { node { '
        "id fullDatabaseId author { __typename login } } } } }",
        {"s": ids["issue"]},
    )
    node = added["data"]["addComment"]["commentEdge"]["node"]
    assert node["author"] == {"__typename": "Bot", "login": "github-actions"} or node["author"]["login"] == (
        "github-actions"
    )
    edited = gql(
        'mutation($id: ID!) { updateIssueComment(input: {id: $id, body: "bye"}) { issueComment { body } } }',
        {"id": node["id"]},
    )
    assert edited["data"]["updateIssueComment"]["issueComment"]["body"] == "bye"
    reacted = gql(
        "mutation($s: ID!) { addReaction(input: {subjectId: $s, content: THUMBS_UP}) { reaction { content "
        "} } }",
        {"s": ids["comment"]},
    )
    assert reacted["data"]["addReaction"]["reaction"]["content"] == "THUMBS_UP"
    issue = next(i for i in emulator.state()["issues"] if i["number"] == 1)
    assert issue["timeline"][-1]["body"] == "bye" and issue["timeline"][-1]["id"] == int(
        node["fullDatabaseId"]
    )
    assert issue["timeline"][0]["reactions"][-1]["content"] == "THUMBS_UP"


def test_pull_requests_not_allowed(world: dict[str, Any], client: Any, emulate: Emulators) -> None:
    world["pull_requests_allowed"] = False
    server = emulate(world)
    repo_id = client("POST", server.url, {"query": f"{{ {REPO} {{ id }} }}"}).json()["data"]["repository"][
        "id"
    ]
    reply = client(
        "POST",
        server.url,
        {
            "query": "mutation($r: ID!) { createPullRequest(input: {repositoryId: $r, "
            'baseRefName: "main", headRefName: "main", title: "t"}) '
            "{ pullRequest { number } } }",
            "variables": {"r": repo_id},
        },
    )
    assert (
        reply.json()["errors"][0]["message"]
        == "GitHub Actions is not permitted to create or approve pull requests."
    )


def test_collaborators_forbidden(world: dict[str, Any], client: Any, emulate: Emulators) -> None:
    world["collaborators_via_graphql"] = "forbidden"
    server = emulate(world)
    reply = client(
        "POST",
        server.url,
        {
            "query": f'{{ {REPO} {{ name collaborators(login: "bob", first: 1) '
            "{ edges { permission } } } }"
        },
    )
    assert reply.status == 200
    assert reply.json() == {
        "data": {"repository": {"name": "demo", "collaborators": None}},
        "errors": [
            {
                "type": "FORBIDDEN",
                "path": ["repository", "collaborators"],
                "locations": [{"line": 1, "column": 50}],
                "message": "You do not have permission to view repository collaborators.",
                "extensions": {"saml_failure": False},
            }
        ],
    }
    rest = client("GET", server.base_url + "/repos/octo/demo/collaborators/bob/permission").json()
    assert rest["permission"] == "write"


def test_fork_pull_requests_and_a_bot_viewer(world: dict[str, Any], client: Any, emulate: Emulators) -> None:
    owner, name = world["repository"]["owner"], world["repository"]["name"]
    world["users"] = {**world.get("users", {}), "github-actions": "Bot"}
    world["files"] = {**world.get("files", {}), "sync": {"a.txt": "a\n"}}
    world["pull_requests"] = [
        *world.get("pull_requests", []),
        {
            "number": 900,
            "title": "fork",
            "author": "mallory",
            "created_at": "2026-11-01T00:00:00Z",
            "base": "main",
            "head": "sync",
            "head_repository": "mallory/demo",
        },
        {
            "number": 901,
            "title": "here",
            "author": "github-actions",
            "created_at": "2026-11-01T00:00:00Z",
            "base": "main",
            "head": "sync",
        },
    ]
    query = (
        f'{{ viewer {{ __typename login }} repository(owner: "{owner}", name: "{name}") {{ '
        'pullRequests(headRefName: "sync", first: 10) { nodes { number isCrossRepository '
        "headRepository { nameWithOwner } author { __typename login } } } } }"
    )
    server = emulate(world)
    data = client("POST", server.url, {"query": query}).json()["data"]
    assert data["viewer"] == {"__typename": "User", "login": "github-actions[bot]"}
    assert data["repository"]["pullRequests"]["nodes"] == [
        {
            "number": 900,
            "isCrossRepository": True,
            "headRepository": {"nameWithOwner": "mallory/demo"},
            "author": {"__typename": "User", "login": "mallory"},
        },
        {
            "number": 901,
            "isCrossRepository": False,
            "headRepository": {"nameWithOwner": f"{owner}/{name}"},
            "author": {"__typename": "Bot", "login": "github-actions"},
        },
    ]


def _labels(emulator: Server, number: int) -> list[tuple[str, str, str]]:
    state = emulator.state()
    issue = next(i for i in state["issues"] if i["number"] == number)
    return [(item["type"], item["label"], item["actor"]) for item in issue["timeline"] if "label" in item]


LABEL_IDS = '{ repository(owner: "octo", name: "demo") { id issue(number: 2) { id } bug: label(name: "bug") { id } enhancement: label(name: "enhancement") { id } } }'
ADD = "mutation($i: ID!, $l: [ID!]!) { addLabelsToLabelable(input: {labelableId: $i, labelIds: $l}) { labelable { ... on Issue { labels(first: 10) { nodes { name } } } } } }"
REMOVE = ADD.replace("addLabelsToLabelable", "removeLabelsFromLabelable")


def test_labels_are_applied_and_taken_off_as_the_viewer(emulator: Server, gql: Any) -> None:
    ids = gql(LABEL_IDS)["data"]["repository"]
    issue, bug, enhancement = ids["issue"]["id"], ids["bug"]["id"], ids["enhancement"]["id"]
    added = gql(ADD, {"i": issue, "l": [bug, enhancement]})["data"]["addLabelsToLabelable"]
    assert added["labelable"]["labels"]["nodes"] == [{"name": "bug"}, {"name": "enhancement"}]
    # A label already on the issue records no second event; one not on it none either.
    gql(ADD, {"i": issue, "l": [bug]})
    removed = gql(REMOVE, {"i": issue, "l": [bug]})["data"]["removeLabelsFromLabelable"]
    assert removed["labelable"]["labels"]["nodes"] == [{"name": "enhancement"}]
    gql(REMOVE, {"i": issue, "l": [bug]})
    assert _labels(emulator, 2) == [
        ("labeled", "bug", "github-actions"),
        ("labeled", "enhancement", "github-actions"),
        ("unlabeled", "bug", "github-actions"),
    ]
    unknown = gql(ADD, {"i": issue, "l": ["LA_nope"]})
    assert unknown["data"]["addLabelsToLabelable"] is None and unknown["errors"][0]["type"] == "NOT_FOUND"


def test_labelling_needs_triage_and_an_issue_opens_as_the_viewer(
    world: dict[str, Any], emulate: Emulators, client: Any
) -> None:
    server = emulate({**world, "tokens": {"reader": "dora", "triager": "carol"}})

    def gql(query: str, variables: dict[str, Any], token: str) -> Any:
        return client("POST", server.url, {"query": query, "variables": variables}, token).json()

    ids = gql(LABEL_IDS, {}, "reader")["data"]["repository"]
    refused = gql(ADD, {"i": ids["issue"]["id"], "l": [ids["bug"]["id"]]}, "reader")
    assert refused["errors"][0]["type"] == "FORBIDDEN"
    assert (
        refused["errors"][0]["message"]
        == "dora does not have the correct permissions to execute `AddLabelsToLabelable`"
    )
    assert gql(ADD, {"i": ids["issue"]["id"], "l": [ids["bug"]["id"]]}, "triager")["data"][
        "addLabelsToLabelable"
    ]
    opened = gql(
        'mutation($r: ID!) { createIssue(input: {repositoryId: $r, title: "Crash", body: "b"}) { issue { number author { login } state } } }',
        {"r": ids["id"]},
        "reader",
    )["data"]["createIssue"]["issue"]
    assert opened["author"]["login"] == "dora" and opened["state"] == "OPEN"
    assert opened["number"] == max(i["number"] for i in world["issues"] + world.get("pull_requests", [])) + 1


def test_an_apps_token_edits_the_comment_it_added(
    world: dict[str, Any], client: Any, emulate: Emulators
) -> None:
    """An app's token acts as `NAME[bot]` (its `viewer`), its comments' author is the Bot `NAME`:
    the comment is its own to edit (found by the conformance scenario's second `memory write`)."""
    world["viewer"] = "triage-assistant[bot]"
    server = emulate(world)

    def gql(query: str, variables: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = client("POST", server.url, {"query": query, "variables": variables}).json()
        return answer

    issue = gql(f"{{ {REPO} {{ issue(number: 1) {{ id }} }} }}", {})["data"]["repository"]["issue"]["id"]
    added = gql(
        'mutation($s: ID!) { addComment(input: {subjectId: $s, body: "hello"}) { commentEdge { node { '
        "id author { login } } } } }",
        {"s": issue},
    )["data"]["addComment"]["commentEdge"]["node"]
    assert added["author"]["login"] == "triage-assistant"
    edited = gql(
        'mutation($id: ID!) { updateIssueComment(input: {id: $id, body: "bye"}) { issueComment { body } } }',
        {"id": added["id"]},
    )
    assert (
        edited.get("errors") is None and edited["data"]["updateIssueComment"]["issueComment"]["body"] == "bye"
    )
