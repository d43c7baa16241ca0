"""Recorded real GitHub answers (tests/conformance/recordings/, sources noted in each file).

(a) The product's parsers accept each recording and read the right facts from it.
(b) The emulator's answer to the same request has the same shape: the same keys, `__typename`s,
    nullability and error `type`/`path` form. The emulator and the product were written by the
    same team; these answers were not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assistant.identity import Identity, is_assistant
from corrections.rules.models import Actor
from emulator import Server
from queries.classify import classify
from queries.errors import BadCredentials, PermissionDenied, RateLimited
from queries.models import ReactionNode
from queries.permissions import ListedCollaborator
from tests.emulation import Emulators
from tests.emulator.conftest import SMALL_WORLD, http

RECORDINGS = Path(__file__).resolve().parent / "recordings"
REPO = 'repository(owner: "octo", name: "demo")'


def recording(name: str) -> dict[str, Any]:
    """One recording: `source`, `status`, `response`."""
    data: dict[str, Any] = json.loads((RECORDINGS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def shape(value: Any) -> Any:
    """The shape of a JSON value: keys and kinds, with `__typename` and error `type` kept as values."""
    if isinstance(value, dict):
        return {
            key: (item if key in ("__typename", "type") else shape(item))
            for key, item in sorted(value.items())
        }
    if isinstance(value, list):
        kinds = {json.dumps(shape(item), sort_keys=True) for item in value}
        return [json.loads(kind) for kind in sorted(kinds)]
    return type(value).__name__


@pytest.fixture(scope="module")
def emulator(emulate_module: Emulators) -> Server:
    """The small world with GraphQL's collaborator list answering (a pusher's token)."""
    return emulate_module(SMALL_WORLD, collaborators_via_graphql="allowed")


def post(server: Server, query: str, variables: dict[str, Any] | None = None, token: str | None = "t") -> Any:
    return http("POST", server.url, {"query": query, "variables": variables or {}}, token)


def test_every_recording_names_its_source() -> None:
    for path in sorted(RECORDINGS.glob("*.json")):
        source = json.loads(path.read_text(encoding="utf-8"))["source"]
        assert {"what", "repository", "where", "licence", "trimmed"} <= set(source), path.name


def test_argument_limit(emulator: Server) -> None:
    recorded = recording("argument_limit")
    ids = ["MDEwOlJlcG9zaXRvcnkxMjAxNDU1NzA="] * 101
    answer = post(
        emulator, "query($ids: [ID!]!) { nodes_101: nodes(ids: $ids) { __typename } }", {"ids": ids}
    )
    assert answer.status == recorded["status"]
    body = answer.json()
    assert shape(body) == shape(recorded["response"])
    assert body["errors"][0]["message"] == recorded["response"]["errors"][0]["message"]
    assert body["errors"][0]["path"] == recorded["response"]["errors"][0]["path"]


def test_rate_limit(emulator: Server) -> None:
    recorded = recording("rate_limit")
    error = classify(recorded["status"], recorded["response"]["errors"], "", {})
    assert isinstance(error, RateLimited), "(a) the product reads it as the rate limit"
    emulator.set_faults([{"kind": "rate_limit"}])
    answer = post(emulator, "{ viewer { login } }")
    assert answer.status == recorded["status"]
    assert shape(answer.json()) == shape(recorded["response"])


def test_forbidden_partial(world_forbidden: Server) -> None:
    recorded = recording("forbidden_partial")["response"]["errors"][0]
    answer = post(
        world_forbidden,
        f'{{ {REPO} {{ collaborators(login: "bob", first: 1) {{ edges {{ permission }} }} }} }}',
    ).json()
    assert answer["data"] == {"repository": {"collaborators": None}}, "the field nulled, the parent kept"
    [error] = answer["errors"]
    assert shape({k: v for k, v in error.items() if k != "path"}) == shape(
        {k: v for k, v in recorded.items() if k != "path"}
    )
    assert error["path"] == ["repository", "collaborators"]
    assert all(isinstance(step, str | int) for step in recorded["path"])


def test_forbidden_on_a_non_null_field_nulls_its_nullable_parent(emulate: Emulators) -> None:
    """A token without `issues: read`: FORBIDDEN on `repository.issues` (`IssueConnection!`), so
    GraphQL's null propagation nulls `repository` itself; the error keeps the recorded shape and
    the path of the field refused (GraphQL specification, "Handling Field Errors")."""
    recorded = recording("forbidden_partial")["response"]["errors"][0]
    server = emulate(SMALL_WORLD, faults=[{"kind": "partial", "path": ["repository", "issues"]}])
    answer = post(server, f"{{ {REPO} {{ id issues(first: 1) {{ nodes {{ number }} }} }} }}").json()
    assert answer["data"] == {"repository": None}, "the non-null field's null went up to `repository`"
    [error] = answer["errors"]
    assert shape({k: v for k, v in error.items() if k != "path"}) == shape(
        {k: v for k, v in recorded.items() if k != "path"}
    )
    assert error["path"] == ["repository", "issues"]


def test_forbidden_on_a_list_item_nulls_that_item(emulate: Emulators) -> None:
    """`nodes` of a connection holds nullable items: the refused item alone is null."""
    server = emulate(SMALL_WORLD, faults=[{"kind": "partial", "path": ["repository", "issues", "nodes", 0]}])
    answer = post(server, f"{{ {REPO} {{ issues(first: 2) {{ nodes {{ number }} }} }} }}").json()
    nodes = answer["data"]["repository"]["issues"]["nodes"]
    assert nodes[0] is None and nodes[1] is not None
    assert answer["errors"][0]["path"] == ["repository", "issues", "nodes", 0]


def test_the_workflow_token_posts_as_the_shared_bot_github_actions() -> None:
    """(a) REST's `github-actions[bot]` (type Bot) is the assistant `github-actions` of the
    examples, and a shared one; a user of that login is not."""
    author = recording("workflow_token_author")["response"]["author"]
    actor = Actor(login=author["login"], typename=author["type"])
    assert is_assistant(actor, Identity("github-actions")) and Identity("github-actions").is_shared
    assert not is_assistant(actor, Identity("github-actions", "user"))


@pytest.fixture
def world_forbidden(emulate: Emulators) -> Server:
    """The emulator's default: a workflow token's answer on github.com."""
    return emulate(SMALL_WORLD)


def test_collaborators_refused_by_default_with_githubs_current_words(world_forbidden: Server) -> None:
    """GitHub now answers a token that may not list collaborators with these words (quoted in
    refined-github/refined-github#8553 and #9817, turbot/steampipe-plugin-github#291)."""
    answer = post(
        world_forbidden,
        f'{{ {REPO} {{ collaborators(login: "bob", first: 1) {{ edges {{ permission }} }} }} }}',
    ).json()
    [error] = answer["errors"]
    assert (error["type"], error["message"]) == (
        "FORBIDDEN",
        "You do not have permission to view repository collaborators.",
    )


def test_rest_permission_without_push_access(emulate: Emulators) -> None:
    """PyGithub's recording of REST's 403 for a token without push access: the emulator answers it
    with `"rest_permission": "no_push"`, and the product reads it as a refusal, not a rate limit."""
    recorded = recording("permission_no_push_403")
    server = emulate(SMALL_WORLD, rest_permission="no_push")
    answer = http("GET", server.base_url + "/repos/octo/demo/collaborators/bob/permission", None, "t")
    assert answer.status == recorded["status"] == 403
    assert shape(answer.json()) == shape(recorded["response"])
    assert answer.json()["message"] == recorded["response"]["message"]
    error = classify(recorded["status"], None, json.dumps(recorded["response"]), {})
    assert isinstance(error, PermissionDenied), "(a) read as a refusal (x-ratelimit-remaining was 4980)"


def test_missing_token(emulator: Server) -> None:
    recorded = recording("missing_token_401")
    answer = post(emulator, "{ viewer { login } }", token=None)
    assert answer.status == recorded["status"] == 401
    assert answer.json() == recorded["response"]
    error = classify(recorded["status"], None, json.dumps(recorded["response"]), {})
    assert isinstance(error, BadCredentials), "(a) a missing token reads as a credentials problem"


def test_reactions(emulator: Server) -> None:
    recorded = recording("reactions")["response"]
    parsed = [ReactionNode.model_validate(node) for node in recorded]
    assert [(node.content, node.user and node.user.login) for node in parsed] == [
        ("LAUGH", "decentralion"),
        ("HEART", "decentralion"),
    ]
    assert all(node.user is not None and node.user.typename == "User" for node in parsed)
    answer = post(
        emulator,
        f"{{ {REPO} {{ issue(number: 1) {{ comments(first: 1) {{ nodes {{ reactions(first: 10) {{ nodes {{ "
        "__typename content id user { __typename id login url } } } } } } } }",
    ).json()
    nodes = answer["data"]["repository"]["issue"]["comments"]["nodes"][0]["reactions"]["nodes"]
    people = [node for node in nodes if node["user"] is not None]
    assert people and shape(people) == shape(recorded)
    assert any(node["user"] is None for node in nodes), (
        "a deleted reactor is null (Reaction.user is nullable)"
    )


def test_collaborators_list_the_owner(emulator: Server) -> None:
    """The recorded list shows the organization's admin, never added one by one; the emulator lists its owner."""
    recorded = recording("collaborators_list")["response"]
    admins = [user["login"] for user in recorded if user["permissions"]["admin"]]
    assert admins == ["octokit-fixture-user-a"]
    answer = post(
        emulator, f"{{ {REPO} {{ collaborators(first: 10) {{ edges {{ permission node {{ login }} }} }} }} }}"
    )
    edges = answer.json()["data"]["repository"]["collaborators"]["edges"]
    assert {"permission": "ADMIN", "node": {"login": "octo"}} in edges


def test_the_rest_collaborator_list_has_the_recorded_shape(emulate: Emulators) -> None:
    """octokit/fixtures' recorded REST list: each person a user with a `permissions` hash; the
    emulator's answer to a pusher's token (the world's `tokens`) has every recorded key, and the
    product reads the recording's roles from the hash alone (the trimmed recording has no
    `role_name`)."""
    recorded = recording("collaborators_list")["response"]
    levels = [ListedCollaborator.model_validate(person).level() for person in recorded]
    assert levels == ["ADMIN", "WRITE"], "(a) read from the recorded hash"
    server = emulate(SMALL_WORLD, tokens={"alices-token": "alice"})
    answer = http("GET", server.base_url + "/repos/octo/demo/collaborators", None, "alices-token")
    assert answer.status == 200
    for person in answer.json():
        assert set(recorded[0]) <= set(person)
        assert set(recorded[0]["permissions"]) <= set(person["permissions"])
        assert person["role_name"] in {"admin", "maintain", "write", "triage", "read"}
