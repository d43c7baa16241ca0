"""GitHub's GraphQL endpoint: a constant the command lines need before any network code loads."""

from __future__ import annotations

# https://docs.github.com/en/graphql/guides/forming-calls-with-graphql#the-graphql-endpoint
GITHUB_GRAPHQL_URL = "https://api.github.com/graphql"
