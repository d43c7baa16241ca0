"""What to check when GitHub refused or failed a whole request, by the failure's fixed category
(queries.errors): one sentence for the user, the same for the reader, the sync and every command.
`{token}` stands for where the token came from (the action's input, or the variables)."""

from __future__ import annotations

from queries.errors import lacks

ADVICE = {
    "bad credentials": "GitHub did not accept the token: check that {token} holds a token that is "
    "valid and not expired, with read access to the repository's issues, pull requests and contents.",
    "permission denied": "The token may not read this repository: check {token} and its permissions "
    "(issues, pull requests and contents: read; metadata: read).",
    # A FORBIDDEN on a part one workflow permission opens (queries.errors.lacks).
    lacks("issues"): "The token may not read the repository's issues: give the workflow's job "
    "`permissions: issues: read` (or `issues: write`), or pass in {token} a token that can read them.",
    lacks("contents"): "The token may not read the repository's files: give the workflow's job "
    "`permissions: contents: read`, or pass in {token} a token that can read them.",
    lacks("pull-requests"): "The token may not read the repository's pull requests: give the "
    "workflow's job `permissions: pull-requests: read`, or pass in {token} a token that can read them.",
    "not found": "Check the repository name (OWNER/NAME) and that the token in {token} can see it "
    "(a private repository looks missing to a token without access).",
    "network error": "GitHub could not be reached: check the network and the API URL.",
    "timeout": "GitHub did not answer in time: check the network and the API URL, or allow more time.",
    "rate limit": "The token's rate limit is used up: try again after it resets.",
    "secondary rate limit": "GitHub slowed this token down (secondary rate limit): try again later.",
    "GitHub server error": "GitHub's side failed: try again later.",
    "GitHub timeout": "GitHub stopped the query after its 10 s limit even with the smallest pages: "
    "try again later.",
    "resource limits": "GitHub refused the query for its resource limits even with the smallest "
    "pages: try again later.",
}
# Where the token comes from, as the sentences name it.
FROM_ACTION = "the action's `token` input"
FROM_VARIABLES = "GITHUB_TOKEN (else GH_TOKEN)"


def advice(category: str | None, *, actions: bool) -> str:
    """The sentence for a failure's category (empty when there is none to give)."""
    return ADVICE.get(category or "", "").format(token=FROM_ACTION if actions else FROM_VARIABLES)
