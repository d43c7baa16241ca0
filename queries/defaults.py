"""What the command lines show of `queries/` before any network code loads: GitHub's GraphQL
endpoint and the default time budget of one read (queries.retry, the policy that spends it,
imports it from here)."""

from __future__ import annotations

# https://docs.github.com/en/graphql/guides/forming-calls-with-graphql#the-graphql-endpoint
GITHUB_GRAPHQL_URL = "https://api.github.com/graphql"

# A workflow step that waits longer for context than the analysis itself takes is worse than an
# analysis without corrections.
DEFAULT_BUDGET = 45.0
