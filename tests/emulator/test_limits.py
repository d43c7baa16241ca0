"""GitHub's query limits, cost formula and per-token budget."""

from __future__ import annotations

from typing import Any

from graphql import FragmentDefinitionNode, OperationDefinitionNode, parse
from graphql.execution.values import get_variable_values

from emulator.cost import analyze
from emulator.schema import load_schema
from tests.emulation import Emulators

REPO = 'repository(owner: "octo", name: "demo")'

# The worked example of docs.github.com "Rate limits and query limits for the GraphQL API".
GITHUB_EXAMPLE = """query {
  viewer {
    login
    repositories(first: 100) {
      edges { node { id
        issues(first: 50) { edges { node { id labels(first: 60) { edges { node { id name } } } } } }
      } }
    }
  }
}"""


def _analysis(query: str, variables: dict[str, Any] | None = None) -> Any:
    schema = load_schema()
    document = parse(query)
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    values = get_variable_values(schema, operation.variable_definitions or (), variables or {})
    assert not isinstance(values, list)
    return analyze(schema, operation, fragments, values)


def test_cost_of_githubs_worked_example() -> None:
    result = _analysis(GITHUB_EXAMPLE)
    assert result.requests == 5101
    assert result.cost == 51
    assert result.nodes == 305_100


def test_skipped_fields_cost_nothing() -> None:
    query = f"""query($all: Boolean!) {{ {REPO} {{ issues(first: 100) {{ nodes {{
        timelineItems(first: 100) @include(if: $all) {{ totalCount }} }} }} }} }}"""
    assert _analysis(query, {"all": True}).requests == 101
    skipped = _analysis(query, {"all": False})
    assert skipped.requests == 1 and skipped.cost == 1 and skipped.nodes == 100


def test_refusals(gql: Any) -> None:
    no_first = gql(f"{{ {REPO} {{ issues {{ nodes {{ number }} }} }} }}")
    assert "data" not in no_first
    assert no_first["errors"] == [
        {
            "type": "MISSING_PAGINATION_BOUNDARIES",
            "path": ["repository", "issues"],
            "locations": [{"line": 1, "column": 45}],
            "message": "You must provide a `first` or `last` value to properly paginate the `issues` "
            "connection.",
        }
    ]
    too_many = gql(f"{{ {REPO} {{ issues(first: 101) {{ nodes {{ number }} }} }} }}")
    assert too_many["errors"][0]["message"] == (
        "Requesting 101 records on the `issues` connection exceeds the `first` limit of 100 records."
    )
    assert gql(f"{{ {REPO} {{ issues(last: 0) {{ nodes {{ number }} }} }} }}")["errors"][0]["type"] == (
        "EXCESSIVE_PAGINATION"
    )
    count_only = gql(f"{{ {REPO} {{ issues {{ totalCount }} }} }}")
    assert count_only["data"]["repository"]["issues"]["totalCount"] == 3
    huge = gql(f"""{{ {REPO} {{ issues(first: 100) {{ nodes {{ timelineItems(first: 100) {{ nodes {{
        ... on IssueComment {{ reactions(first: 100) {{ totalCount }} }} }} }} }} }} }} }}""")
    assert "data" not in huge
    assert huge["errors"] == [
        {
            "type": "MAX_NODE_LIMIT_EXCEEDED",
            "message": (
                "By the time this query traverses to the reactions connection, it is requesting up to "
                "1,000,000 possible nodes which exceeds the maximum limit of 500,000."
            ),
        }
    ]


def test_unknown_field_refused_like_github(gql: Any) -> None:
    reply = gql(f"query Probe {{ {REPO} {{ issue(number: 1) {{ titel }} }} }}")
    assert reply == {
        "errors": [
            {
                "path": ["query Probe", "repository", "issue", "titel"],
                "extensions": {"code": "undefinedField", "typeName": "Issue", "fieldName": "titel"},
                "locations": [{"line": 1, "column": 76}],
                "message": "Field 'titel' doesn't exist on type 'Issue'",
            }
        ]
    }


def test_missing_token_is_401(emulator: Any, client: Any) -> None:
    reply = client("POST", emulator.url, {"query": "{ viewer { login } }"}, token=None)
    assert reply.status == 401
    # GitHub's words without a token; "Bad credentials" is for a token it does not know.
    assert reply.json()["message"] == "This endpoint requires you to be authenticated."


def test_budget_per_token_runs_out(world: dict[str, Any], client: Any, emulate: Emulators) -> None:
    world["rate_limit"] = {"limit": 1000, "remaining": 3}
    query = {
        "query": f"{{ {REPO} {{ issues(first: 100) {{ nodes {{ "
        "timelineItems(first: 100) { totalCount } } } } }"
    }
    server = emulate(world)
    first = client("POST", server.url, query, token="a")
    assert first.status == 200 and "data" in first.json()
    assert first.headers["x-ratelimit-remaining"] == "2" and first.headers["x-ratelimit-used"] == "998"
    assert first.headers["x-ratelimit-resource"] == "graphql" and first.headers["x-ratelimit-limit"] == "1000"
    client("POST", server.url, query, token="a")
    client("POST", server.url, query, token="a")
    refused = client("POST", server.url, query, token="a")
    assert refused.status == 200
    assert refused.json()["errors"][0]["type"] == "RATE_LIMITED"
    assert refused.json()["errors"][0]["message"].startswith("API rate limit exceeded for ")
    other = client("POST", server.url, query, token="b")
    assert "data" in other.json()
    dry = client("POST", server.url, {"query": "{ rateLimit(dryRun: true) { cost remaining } }"}, token="a")
    assert dry.json()["data"]["rateLimit"] == {"cost": 1, "remaining": 0}
    assert [entry["cost"] for entry in server.log()] == [1, 1, 1, 0, 1, 1]
