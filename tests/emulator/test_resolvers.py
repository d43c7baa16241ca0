"""Resolver semantics over real HTTP: issues, timeline, reactions, actors, files, search, nodes."""

from __future__ import annotations

from typing import Any

from tests.emulation import Emulators
from tests.emulator.conftest import http

REPO = 'repository(owner: "octo", name: "demo")'


def test_issues_exclude_pull_requests_and_order_by_updated(gql: Any) -> None:
    data = gql(
        f"{{ {REPO} {{ issues(first: 10, orderBy: {{field: UPDATED_AT, direction: DESC}}) "
        "{ totalCount nodes { number updatedAt } } } }"
    )["data"]
    nodes = data["repository"]["issues"]["nodes"]
    assert [n["number"] for n in nodes] == [3, 2, 1]
    assert data["repository"]["issues"]["totalCount"] == 3
    assert nodes[0]["updatedAt"] == "2026-11-03T09:00:00Z"


def test_issue_order_fields_and_state_filters(gql: Any) -> None:
    data = gql(f"""{{ {REPO} {{
      created: issues(first: 5, orderBy: {{field: CREATED_AT, direction: ASC}}) {{ nodes {{ number }} }}
      comments: issues(first: 5, orderBy: {{field: COMMENTS, direction: DESC}}) {{ nodes {{ number }} }}
      open: issues(first: 5, states: [OPEN]) {{ totalCount nodes {{ number }} }}
      since: issues(first: 5, filterBy: {{since: "2026-11-02T00:00:00Z"}}) {{ nodes {{ number }} }}
    }} }}""")["data"]["repository"]
    assert [n["number"] for n in data["created"]["nodes"]] == [3, 1, 2]
    assert [n["number"] for n in data["comments"]["nodes"]] == [3, 2, 1]
    assert [n["number"] for n in data["open"]["nodes"]] == [3, 1]
    assert data["open"]["totalCount"] == 2
    assert [n["number"] for n in data["since"]["nodes"]] == [3, 2]


def test_state_reason_duplicate_by_default(gql: Any) -> None:
    """GitHub's current schema (2026-07-24): DUPLICATE "is now returned by default"; the deprecated
    `enableDuplicate` argument is still accepted and changes nothing."""
    issue = gql(
        f"{{ {REPO} {{ issue(number: 2) {{ state closed stateReason "
        "dup: stateReason(enableDuplicate: true) } } }"
    )["data"]["repository"]["issue"]
    assert issue == {"state": "CLOSED", "closed": True, "stateReason": "DUPLICATE", "dup": "DUPLICATE"}


def test_labels_follow_the_timeline(gql: Any) -> None:
    issue = gql(f"{{ {REPO} {{ issue(number: 1) {{ labels(first: 10) {{ nodes {{ name }} }} }} }} }}")
    assert issue["data"]["repository"]["issue"]["labels"]["nodes"] == [{"name": "enhancement"}]


def test_timeline_item_types_order_and_last(gql: Any) -> None:
    query = f"""{{ {REPO} {{ issue(number: 1) {{
      all: timelineItems(first: 10) {{ totalCount nodes {{ __typename }} }}
      labels: timelineItems(first: 10, itemTypes: [LABELED_EVENT, UNLABELED_EVENT]) {{
        totalCount nodes {{ __typename ... on LabeledEvent {{ label {{ name }} actor {{ login }} }}
                              ... on UnlabeledEvent {{ label {{ name }} actor {{ __typename login }} }} }} }}
      newest: timelineItems(last: 1) {{ nodes {{ ... on LabeledEvent {{ createdAt }} }} }}
      since: timelineItems(first: 10, since: "2026-11-01T12:00:00Z") {{ totalCount }}
    }} }} }}"""
    issue = gql(query)["data"]["repository"]["issue"]
    assert [n["__typename"] for n in issue["all"]["nodes"]] == [
        "IssueComment",
        "LabeledEvent",
        "UnlabeledEvent",
        "LabeledEvent",
    ]
    assert issue["labels"]["totalCount"] == 3
    assert issue["labels"]["nodes"][1] == {
        "__typename": "UnlabeledEvent",
        "label": {"name": "bug"},
        "actor": {"__typename": "User", "login": "alice"},
    }
    assert issue["newest"]["nodes"] == [{"createdAt": "2026-11-01T12:01:00Z"}]
    assert issue["since"]["totalCount"] == 2


def test_comment_fields_bots_ghosts_and_associations(gql: Any) -> None:
    query = f"""{{ {REPO} {{ one: issue(number: 1) {{ comments(first: 5) {{ nodes {{
        fullDatabaseId body author {{ __typename login }} authorAssociation }} }} }}
      two: issue(number: 2) {{ author {{ login }} comments(first: 5) {{ nodes {{
        author {{ login }} authorAssociation }} }} }}
      three: issue(number: 3) {{ comments(first: 5) {{ nodes {{ authorAssociation }} }} }} }} }}"""
    repo = gql(query)["data"]["repository"]
    assert repo["one"]["comments"]["nodes"] == [
        {
            "fullDatabaseId": "2400009001",
            "body": "analysis",
            "authorAssociation": "NONE",
            "author": {"__typename": "Bot", "login": "triage-assistant"},
        }
    ]
    assert repo["two"]["author"] is None
    assert repo["two"]["comments"]["nodes"] == [{"author": None, "authorAssociation": "NONE"}]
    assert repo["three"]["comments"]["nodes"] == [{"authorAssociation": "COLLABORATOR"}]


def test_reactions_filtered_server_side_and_groups(gql: Any) -> None:
    query = f"""{{ {REPO} {{ issue(number: 1) {{ timelineItems(first: 1) {{ nodes {{ ... on IssueComment {{
      down: reactions(content: THUMBS_DOWN, first: 10) {{ totalCount nodes {{ content user {{ login }} }} }}
      all: reactions(first: 10) {{ totalCount }}
      reactionGroups {{ content reactors(first: 5) {{ totalCount }} }} }} }} }} }} }} }}"""
    comment = gql(query)["data"]["repository"]["issue"]["timelineItems"]["nodes"][0]
    assert comment["down"] == {
        "totalCount": 2,
        "nodes": [
            {"content": "THUMBS_DOWN", "user": {"login": "bob"}},
            {"content": "THUMBS_DOWN", "user": None},
        ],
    }
    assert comment["all"]["totalCount"] == 3
    groups = {g["content"]: g["reactors"]["totalCount"] for g in comment["reactionGroups"]}
    assert groups["THUMBS_DOWN"] == 2 and groups["HEART"] == 1 and groups["EYES"] == 0


def test_duplicate_events_point_at_the_canonical_issue(gql: Any) -> None:
    """A close as a duplicate reads DUPLICATE on the event too: GitHub's current schema returns it
    by default (changelog of 2025-07-15)."""
    query = f"""{{ {REPO} {{ issue(number: 2) {{
      timelineItems(first: 5, itemTypes: [MARKED_AS_DUPLICATE_EVENT,
      CLOSED_EVENT]) {{ nodes {{ __typename ... on ClosedEvent {{ stateReason actor {{ login }} }}
      ... on MarkedAsDuplicateEvent {{ canonical {{ ... on Issue {{ number }} }} }} }} }} }} }} }}"""
    nodes = gql(query)["data"]["repository"]["issue"]["timelineItems"]["nodes"]
    assert nodes == [
        {"__typename": "ClosedEvent", "stateReason": "DUPLICATE", "actor": {"login": "alice"}},
        {"__typename": "MarkedAsDuplicateEvent", "canonical": {"number": 1}},
    ]


def test_pull_requests_and_issue_or_pull_request(gql: Any) -> None:
    query = f"""{{ {REPO} {{ pullRequest(number: 4) {{ baseRefName headRefName state }}
      either: issueOrPullRequest(number: 4) {{ __typename }} notIssue: issue(number: 4) {{ number }} }} }}"""
    reply = gql(query)
    assert reply["data"]["repository"]["pullRequest"] == {
        "baseRefName": "main",
        "headRefName": "feature-x",
        "state": "OPEN",
    }
    assert reply["data"]["repository"]["either"] == {"__typename": "PullRequest"}
    assert reply["errors"][0]["type"] == "NOT_FOUND" and reply["errors"][0]["path"] == [
        "repository",
        "notIssue",
    ]


def test_files_refs_and_missing_objects(gql: Any) -> None:
    query = f"""{{ {REPO} {{ head: object(expression: "HEAD:.github/assistant/labels.md") {{
        ... on Blob {{ text isTruncated isBinary byteSize }} }}
      main: object(expression: "main:.github/assistant/labels.md") {{ ... on Blob {{ oid }} }}
      missing: object(expression: "main:nope.md") {{ ... on Blob {{ text }} }}
      defaultBranchRef {{ name target {{ oid }} }}
      ref(qualifiedName: "refs/heads/main") {{ target {{ oid }} }} }} }}"""
    repo = gql(query)["data"]["repository"]
    assert repo["head"]["text"].startswith("- `bug`") and repo["head"]["isTruncated"] is False
    assert repo["missing"] is None
    assert repo["defaultBranchRef"]["target"]["oid"] == repo["ref"]["target"]["oid"]
    assert len(repo["main"]["oid"]) == 40


def test_collaborators_by_login(world: dict[str, Any], emulate: Emulators) -> None:
    world["collaborators_via_graphql"] = "allowed"  # a token that may list them
    server = emulate(world)

    def gql(query: str) -> Any:
        return http("POST", server.url, {"query": query, "variables": {}}, "t0ken").json()

    query = f"""{{ {REPO} {{
      bob: collaborators(login: "bob", first: 1) {{ edges {{ permission node {{ login }} }} }}
      dave: collaborators(login: "dave", first: 1) {{ edges {{ permission }} }}
      fuzzy: collaborators(query: "c", first: 5) {{ edges {{ node {{ login }} }} }} }} }}"""
    repo = gql(query)["data"]["repository"]
    assert repo["bob"]["edges"] == [{"permission": "WRITE", "node": {"login": "bob"}}]
    assert repo["dave"]["edges"] == []
    assert repo["fuzzy"]["edges"] == [{"node": {"login": "carol"}}]


def test_nodes_by_global_id_round_trip(gql: Any) -> None:
    ids = gql(
        f"{{ {REPO} {{ id issue(number: 1) {{ id author {{ ... on User {{ id }} }} "
        "comments(first: 1) { nodes { id } } "
        "labels(first: 1) { nodes { id } } } } }"
    )["data"]["repository"]
    wanted = [
        ids["id"],
        ids["issue"]["id"],
        ids["issue"]["author"]["id"],
        ids["issue"]["comments"]["nodes"][0]["id"],
        ids["issue"]["labels"]["nodes"][0]["id"],
    ]
    reply = gql(
        'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } one: node(id: "I_nothing") { id } }',
        {"ids": wanted},
    )
    assert [n["__typename"] for n in reply["data"]["nodes"]] == [
        "Repository",
        "Issue",
        "User",
        "IssueComment",
        "Label",
    ]
    assert [n["id"] for n in reply["data"]["nodes"]] == wanted
    assert reply["errors"][0]["type"] == "NOT_FOUND"


def test_search_qualifiers(gql: Any) -> None:
    def numbers(query: str) -> list[int]:
        reply = gql(
            "query($q: String!) { search(type: ISSUE, query: $q, first: 10) { issueCount "
            "nodes { ... on Issue { number } ... on PullRequest { number } } } }",
            {"q": query},
        )
        return [n["number"] for n in reply["data"]["search"]["nodes"]]

    assert numbers("repo:octo/demo is:issue sort:updated-desc") == [3, 2, 1]
    assert numbers("repo:octo/demo is:pr") == [4]
    assert numbers("repo:octo/demo is:closed") == [2]
    assert numbers("repo:octo/demo commenter:app/triage-assistant") == [1]
    assert numbers("repo:octo/demo author:carol is:open") == [3]
    assert numbers("repo:octo/demo updated:>=2026-11-02") == [3, 4, 2]
    assert numbers("repo:other/repo is:issue") == []


def test_aliases_fragments_variables_and_directives(gql: Any) -> None:
    query = """query Q($n: Int!, $withBody: Boolean!) { repository(owner: "octo", name: "demo") {
      a: issue(number: $n) { ...Bits body @include(if: $withBody) } b: issue(number: 3) { ...Bits } } }
      fragment Bits on Issue { number title }"""
    repo = gql(query, {"n": 1, "withBody": False})["data"]["repository"]
    assert repo == {"a": {"number": 1, "title": "First"}, "b": {"number": 3, "title": "Third"}}


def test_viewer_and_rate_limit_fields(gql: Any) -> None:
    data = gql("{ viewer { login } rateLimit { cost limit remaining used nodeCount resetAt } }")["data"]
    # The world names no viewer: the default token is a workflow's, the Bot github-actions, whose
    # `viewer` keeps `[bot]` (release-plz/action#85: `github-actions[bot]`); its budget is GitHub's
    # 1,000 points an hour for the repository.
    assert data["viewer"] == {"login": "github-actions[bot]"}
    assert data["rateLimit"]["limit"] == 1000 and data["rateLimit"]["cost"] == 1
    assert data["rateLimit"]["remaining"] == 999 and data["rateLimit"]["used"] == 1


def test_folders_are_trees_with_entries(gql: Any) -> None:
    query = f"""{{ {REPO} {{
      folder: object(expression: "main:.github") {{ __typename ... on Tree {{ entries {{ name path type
        object {{ ... on Tree {{ entries {{ path type }} }} }} }} }} }}
      root: object(expression: "HEAD:") {{ __typename }}
      gone: object(expression: "main:src/api") {{ __typename }} }} }}"""
    data = gql(query)["data"]["repository"]
    assert data["folder"]["__typename"] == "Tree"
    assert [(e["name"], e["type"]) for e in data["folder"]["entries"]] == [("assistant", "tree")]
    inner = data["folder"]["entries"][0]["object"]["entries"]
    assert [e["path"] for e in inner] == [".github/assistant/labels.md", ".github/assistant/learnings.jsonl"]
    assert data["root"]["__typename"] == "Tree"
    assert data["gone"] is None


def test_collaborators_list_the_owner_and_org_members_not_team_grants(
    world: dict[str, Any], emulate: Emulators
) -> None:
    """Affiliation ALL lists the owning admin (as octokit/fixtures recorded) and, where the world says
    so, organization members; access through nested teams is not listed."""
    world["org_members"] = {"olga": "WRITE"}
    world["team_access"] = {"tom": "MAINTAIN"}
    world["collaborators_via_graphql"] = "allowed"
    query = (
        f"{{ {REPO} {{ all: collaborators(first: 10) {{ edges {{ permission node {{ login }} }} }} "
        'octo: collaborators(login: "octo", first: 1) { edges { permission } } } }'
    )
    server = emulate(world)
    repo = http("POST", server.url, {"query": query}).json()["data"]["repository"]
    world["users"]["octo"] = "Organization"
    listed = {edge["node"]["login"]: edge["permission"] for edge in repo["all"]["edges"]}
    assert listed == {"alice": "ADMIN", "bob": "WRITE", "carol": "TRIAGE", "octo": "ADMIN", "olga": "WRITE"}
    assert repo["octo"]["edges"] == [{"permission": "ADMIN"}]
    server = emulate(world)
    org = http("POST", server.url, {"query": query}).json()["data"]["repository"]
    assert org["octo"]["edges"] == [], "an organization owner is no collaborator"
