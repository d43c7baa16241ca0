"""The REST endpoints: comments newest first with Link pagination, issue, timeline, reactions, permission."""

from __future__ import annotations

import re
from typing import Any

from emulator import Server
from tests.emulation import Emulators

REPO = "/repos/octo/demo"


def test_repo_comments_newest_first_walk_by_link(emulator: Server, client: Any) -> None:
    url: str | None = emulator.base_url + REPO + "/issues/comments?sort=created&direction=desc&per_page=2"
    ids: list[int] = []
    while url:
        reply = client("GET", url)
        ids.extend(c["id"] for c in reply.json())
        found = re.search(r'<([^>]+)>; rel="next"', reply.headers.get("link", ""))
        url = found[1] if found else None
    assert ids == [2400009003, 2400009002, 2400009001]
    first = client(
        "GET", emulator.base_url + REPO + "/issues/comments?sort=created&direction=desc&per_page=2"
    )
    assert 'rel="last"' in first.headers["link"] and first.headers["x-ratelimit-resource"] == "core"
    comment = first.json()[1]
    assert comment["user"] == comment["user"] | {"login": "ghost", "type": "User"}
    oldest = client("GET", emulator.base_url + REPO + "/issues/comments?per_page=100").json()[0]
    assert oldest["user"]["login"] == "triage-assistant[bot]" and oldest["user"]["type"] == "Bot"
    assert oldest["reactions"]["-1"] == 2 and oldest["issue_url"].endswith("/issues/1")


def test_issue_and_timeline(emulator: Server, client: Any) -> None:
    issue = client("GET", emulator.base_url + REPO + "/issues/2").json()
    assert issue["state"] == "closed" and issue["state_reason"] == "duplicate"
    events = client("GET", emulator.base_url + REPO + "/issues/2/timeline").json()
    assert [e["event"] for e in events] == ["commented", "closed", "marked_as_duplicate"]
    assert events[1]["state_reason"] == "duplicate" and events[1]["actor"]["login"] == "alice"
    assert client("GET", emulator.base_url + REPO + "/issues/99").status == 404
    assert "pull_request" in client("GET", emulator.base_url + REPO + "/issues/4").json()


def test_reactions_filtered_by_content(emulator: Server, client: Any) -> None:
    reactions = client(
        "GET", emulator.base_url + REPO + "/issues/comments/2400009001/reactions?content=-1"
    ).json()
    users = [(r["content"], r["user"] and r["user"]["login"]) for r in reactions]
    assert users == [("-1", "bob"), ("-1", None)]  # a deleted reactor is null in REST reactions


def test_collaborator_permission(emulator: Server, client: Any) -> None:
    def permission(user: str) -> tuple[str, str]:
        body = client("GET", emulator.base_url + REPO + f"/collaborators/{user}/permission").json()
        return body["permission"], body["role_name"]

    assert permission("alice") == ("admin", "admin")
    assert permission("bob") == ("write", "write")
    assert permission("carol") == ("read", "triage")
    assert permission("dave") == ("read", "read")


def test_contents(emulator: Server, client: Any) -> None:
    body = client("GET", emulator.base_url + REPO + "/contents/.github/assistant/labels.md?ref=main").json()
    assert body["encoding"] == "base64" and body["path"] == ".github/assistant/labels.md"
    assert client("GET", emulator.base_url + REPO + "/contents/missing.md").status == 404
    assert [e["endpoint"] for e in emulator.log()] == ["rest", "rest"]


def test_permission_counts_every_grant_and_404s_unknown_logins(
    world: dict[str, Any], client: Any, emulate: Emulators
) -> None:
    world["team_access"] = {"tom": "MAINTAIN"}
    world["org_members"] = {"olga": "WRITE"}
    server = emulate(world)

    def permission(user: str) -> Any:
        return client("GET", server.base_url + REPO + f"/collaborators/{user}/permission")

    assert permission("tom").json()["role_name"] == "maintain"
    assert permission("olga").json()["permission"] == "write"
    assert permission("octo").json()["role_name"] == "admin"
    assert permission("dave").json()["role_name"] == "read"  # an account of the world
    assert permission("no-such-user").status == 404


def test_the_collaborator_list_answers_a_pusher_everyone_with_access(
    world: dict[str, Any], client: Any, emulate: Emulators
) -> None:
    """Every grant listed (the owner, `permissions`, `org_members`, `team_access`), each with its
    `permissions` hash and `role_name`, as GitHub's "List repository collaborators" documents."""
    world["team_access"] = {"tom": "MAINTAIN"}
    world["org_members"] = {"olga": "WRITE"}
    world["tokens"] = {"bobs-token": "bob"}
    server = emulate(world)
    answer = client("GET", server.base_url + REPO + "/collaborators?affiliation=all", token="bobs-token")
    assert answer.status == 200
    people = {person["login"]: person for person in answer.json()}
    assert {login: person["role_name"] for login, person in people.items()} == {
        "alice": "admin",
        "bob": "write",
        "carol": "triage",
        "octo": "admin",  # the owner, a person
        "olga": "write",
        "tom": "maintain",  # through a team: listed here, unlike GraphQL's list
    }
    assert people["tom"]["permissions"] == {
        "admin": False,
        "maintain": True,
        "push": True,
        "triage": True,
        "pull": True,
    }
    assert people["carol"]["permissions"]["push"] is False and people["carol"]["type"] == "User"
    direct = client("GET", server.base_url + REPO + "/collaborators?affiliation=direct", token="bobs-token")
    assert [person["login"] for person in direct.json()] == ["alice", "bob", "carol"]


def test_the_collaborator_list_is_refused_to_a_token_that_cannot_push(
    world: dict[str, Any], client: Any, emulate: Emulators
) -> None:
    """A triager gets GitHub's 403 (the world's viewer, a workflow's token, gets its direct
    collaborators: test_a_workflow_token_lists_the_direct_collaborators_only)."""
    world["tokens"] = {"carols-token": "carol"}
    server = emulate(world)
    for token in ("carols-token",):
        answer = client("GET", server.base_url + REPO + "/collaborators", token=token)
        assert answer.status == 403
        assert answer.json() == {
            "message": "Must have push access to view repository collaborators.",
            "documentation_url": "https://docs.github.com/rest/collaborators/collaborators#list-repository-collaborators",
        }
    world["tokens"] = {"alices-token": "alice"}
    refusing = emulate({**world, "rest_permission": "no_push"})
    assert client("GET", refusing.base_url + REPO + "/collaborators", token="alices-token").status == 403


def test_the_collaborator_list_is_paged_with_link_headers(
    world: dict[str, Any], client: Any, emulate: Emulators
) -> None:
    world["permissions"] = {f"person{index:03d}": "READ" for index in range(150)} | {"alice": "ADMIN"}
    world["tokens"] = {"alices-token": "alice"}
    server = emulate(world)
    url: str | None = server.base_url + REPO + "/collaborators?per_page=100"
    logins: list[str] = []
    pages = 0
    while url is not None:
        answer = client("GET", url, token="alices-token")
        logins += [person["login"] for person in answer.json()]
        pages += 1
        found = re.search(r'<([^>]+)>; rel="next"', answer.headers.get("link", ""))
        url = found.group(1) if found else None
    assert pages == 2 and len(logins) == len(set(logins)) == 152  # with alice and the owner
    bigger = client("GET", server.base_url + REPO + "/collaborators?per_page=500", token="alices-token")
    assert len(bigger.json()) == 100, "at most 100 a page"


def test_a_workflow_token_lists_the_direct_collaborators_only(
    world: dict[str, Any], client: Any, emulate: Emulators
) -> None:
    """GitHub answers a workflow's GITHUB_TOKEN 200 with the directly added collaborators, no team
    grant: "I only receive … the 1 individual added directly without any members from teams"
    (actions/runner#2519; also pullpreview/action#96, zephyrproject-rtos/zephyr#90352). A pusher's
    token gets every grant."""
    world["team_access"] = {"nia": "WRITE"}
    world["tokens"] = {"alices-token": "alice"}
    server = emulate(world)
    workflow = client("GET", server.base_url + REPO + "/collaborators", token="t0ken")
    assert workflow.status == 200
    assert [person["login"] for person in workflow.json()] == ["alice", "bob", "carol"]
    pusher = client("GET", server.base_url + REPO + "/collaborators", token="alices-token")
    assert "nia" in [person["login"] for person in pusher.json()]
