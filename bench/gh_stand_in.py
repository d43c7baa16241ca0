"""A stand-in for the `gh` CLI in the loop's runner: the calls of examples/first-analysis.yml, made
through the emulator's GraphQL API with the token in GH_TOKEN (so as that token's account).

    gh api repos/OWNER/NAME/contents/PATH [-H ...]    the file at the default branch, raw
    gh label list [--limit N] --json name [--jq '.[].name']   the repository's labels
    gh issue comment N --body-file FILE                addComment
    gh issue edit N --add-label L1,L2 | --remove-label L   addLabelsToLabelable / removeLabelsFromLabelable

GH_REPO (or GITHUB_REPOSITORY) names the repository, EMULATOR_GRAPHQL_URL the endpoint. Any other
call fails with a line naming it: a step the stand-in does not know is not silently skipped.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any


class GhFailed(RuntimeError):
    """What gh would print before exiting 1."""


def graphql(query: str, variables: dict[str, Any]) -> dict[str, Any]:
    """One GraphQL request with GH_TOKEN; the data, or GhFailed with GitHub's first error."""
    request = urllib.request.Request(  # noqa: S310 - the emulator's loopback URL
        os.environ["EMULATOR_GRAPHQL_URL"],
        data=json.dumps({"query": query, "variables": variables}).encode(),
        headers={"Authorization": f"bearer {os.environ['GH_TOKEN']}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
        body = json.loads(response.read())
    if body.get("errors"):
        raise GhFailed(f"GraphQL: {body['errors'][0]['message']}")
    data: dict[str, Any] = body["data"]
    return data


def _repository() -> tuple[str, str]:
    owner, _, name = (os.environ.get("GH_REPO") or os.environ["GITHUB_REPOSITORY"]).partition("/")
    return owner, name


def _issue_id(number: int) -> str:
    owner, name = _repository()
    found = graphql(
        "query($o: String!, $n: String!, $i: Int!) { repository(owner: $o, name: $n) { issue(number: $i) { id } } }",
        {"o": owner, "n": name, "i": number},
    )
    issue = found["repository"]["issue"]
    if issue is None:
        raise GhFailed(f"issue #{number} not found")
    return str(issue["id"])


def _label_ids(names: Sequence[str]) -> list[str]:
    owner, name = _repository()
    ids = []
    for label in names:
        found = graphql(
            "query($o: String!, $n: String!, $l: String!) { repository(owner: $o, name: $n) { label(name: $l) { id } } }",
            {"o": owner, "n": name, "l": label},
        )
        if found["repository"]["label"] is None:
            raise GhFailed(f"'{label}' not found")
        ids.append(found["repository"]["label"]["id"])
    return ids


def _option(args: list[str], name: str) -> str | None:
    if name in args:
        index = args.index(name)
        if index + 1 < len(args):
            return args[index + 1]
    return None


def api(args: list[str]) -> str:
    """`gh api repos/O/N/contents/PATH`: the file's text at the default branch."""
    path = args[0]
    owner, name = _repository()
    prefix = f"repos/{owner}/{name}/contents/"
    if not path.startswith(prefix):
        raise GhFailed(f"gh api {path}: not modelled by the stand-in")
    found = graphql(
        "query($o: String!, $n: String!, $e: String!) { repository(owner: $o, name: $n) { object(expression: $e) { ... on Blob { text } } } }",
        {"o": owner, "n": name, "e": f"HEAD:{path.removeprefix(prefix)}"},
    )
    blob = found["repository"]["object"]
    if blob is None:
        raise GhFailed("HTTP 404: Not Found")
    return str(blob["text"])


def label_list(args: list[str]) -> str:
    """`gh label list --json name`: the repository's labels as JSON, or one name a line with
    `--jq '.[].name'` (the only filter modelled), at most `--limit` of them (gh's default 30)."""
    if _option(args, "--json") != "name":
        raise GhFailed("gh label list: only --json name is modelled")
    jq = _option(args, "--jq")
    if jq not in (None, ".[].name"):
        raise GhFailed(f"gh label list --jq {jq}: not modelled by the stand-in")
    limit = int(_option(args, "--limit") or 30)
    owner, name = _repository()
    names: list[str] = []
    after = None
    while len(names) < limit:
        found = graphql(
            "query($o: String!, $n: String!, $a: String) { repository(owner: $o, name: $n) { labels(first: 100, after: $a) { nodes { name } pageInfo { hasNextPage endCursor } } } }",
            {"o": owner, "n": name, "a": after},
        )
        page = found["repository"]["labels"]
        names += [str(node["name"]) for node in page["nodes"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    names = names[:limit]
    if jq is None:
        return json.dumps([{"name": label} for label in names]) + "\n"
    return "".join(f"{label}\n" for label in names)


def issue(args: list[str]) -> None:
    """`gh issue comment N --body-file F` and `gh issue edit N --add-label/--remove-label L,...`."""
    command, number = args[0], int(args[1].lstrip("#"))
    subject = _issue_id(number)
    if command == "comment":
        body_file = _option(args, "--body-file")
        if body_file is None:
            raise GhFailed("gh issue comment: only --body-file is modelled")
        body = Path(body_file).read_text(encoding="utf-8")
        graphql(
            "mutation($s: ID!, $b: String!) { addComment(input: {subjectId: $s, body: $b}) { clientMutationId } }",
            {"s": subject, "b": body},
        )
        return
    if command == "edit":
        for option, mutation in (
            ("--add-label", "addLabelsToLabelable"),
            ("--remove-label", "removeLabelsFromLabelable"),
        ):
            value = _option(args, option)
            if value:
                ids = _label_ids([name.strip() for name in value.split(",") if name.strip()])
                graphql(
                    f"mutation($s: ID!, $l: [ID!]!) {{ {mutation}(input: {{labelableId: $s, labelIds: $l}}) {{ clientMutationId }} }}",
                    {"s": subject, "l": ids},
                )
        return
    raise GhFailed(f"gh issue {command}: not modelled by the stand-in")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one gh call; 1 with gh's kind of message on failure."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args[:1] == ["api"]:
            sys.stdout.write(api(args[1:]))
        elif args[:2] == ["label", "list"]:
            sys.stdout.write(label_list(args[2:]))
        elif args[:1] == ["issue"]:
            issue(args[1:])
        else:
            raise GhFailed(f"gh {' '.join(args[:2])}: not modelled by the stand-in")
    except (GhFailed, IndexError, ValueError, OSError) as error:
        print(f"gh: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
