"""`corrections answer`: the model's answer made a comment safe to post, with its marker, and the
labels to apply.

Light at import; the answer's decoder and the second look load when it runs, the second look's
one request only when a duplicate target needs it.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from assistant.files import write_atomic
from commandline.arguments import add_repository_arguments, issue_number
from commandline.notices import Notices
from corrections.commands import SUMMARIES
from corrections.commands.refusal import Refused, refusing

NAME = "answer"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    'Read the model\'s answer ({"labels": [...], "duplicate_of": N, "analysis": "..."}, '
    "a ```json fence around it allowed) and write the comment to post to --out: the analysis with "
    "invisible characters removed, @-mentions, references to issues the context does not know and "
    "HTML comments neutralised, its length bounded, and the marker last. Print the labels to apply "
    "on stdout, comma-separated: only labels of labels.md (with --existing, only those the "
    "repository has). Unless the configuration's [assistant] second_look is false (the context "
    "says), the draft gets a second look first: a duplicate target that maintainers objected to, "
    "or that is not an open, unlocked issue of the repository (one request to GitHub), and a "
    "label maintainers removed from the most similar corrected issues and kept on none, are left "
    "out, each said in one line of the comment and recorded in the marker. "
    "Exit 1, writing nothing, when the answer is not a JSON object."
)
EXAMPLES = (
    'labels=$(corrections answer --response "$RESPONSE_FILE" --issue 61 --context "$CONTEXT" '
    '--out "$RUNNER_TEMP/comment.md")',
)
TOKEN = False


@dataclass(frozen=True)
class AnswerOptions:
    """The model's answer, the issue, the context folder, where the comment goes; the second
    look's repository and endpoint (None: the context's, then the environment's)."""

    response: Path
    issue: int
    out: Path
    context: Path = Path("corrections-context")
    existing: Path | None = None
    repo: str | None = None
    api_url: str | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--response", required=True, metavar="FILE", help="the model's answer")
    parser.add_argument(
        "--issue", required=True, type=issue_number, metavar="N", help="the issue analysed (61 or '#61')"
    )
    parser.add_argument(
        "--context",
        default="corrections-context",
        metavar="DIR",
        help="the folder `corrections read` wrote: its vocabulary and the issues a comment may "
        "reference (default: %(default)s)",
    )
    parser.add_argument(
        "--existing",
        metavar="FILE",
        help="the repository's labels, one a line (`gh label list --json name --jq '.[].name'`): a "
        "label of labels.md not among them is left out of the marker and of the labels to apply, and "
        "a warning names it (default: not checked)",
    )
    add_repository_arguments(
        parser,
        api_url=None,
        repo_help="the repository, for the second look's request (default: the context's, as "
        "`corrections read` wrote it, else GITHUB_REPOSITORY)",
        api_url_help="GitHub's GraphQL endpoint, for the second look's request (default: "
        "GITHUB_GRAPHQL_URL, else github.com's)",
    )
    parser.add_argument("--out", required=True, metavar="FILE", help="write the comment to post to FILE")


def options_from(args: argparse.Namespace) -> AnswerOptions:
    return AnswerOptions(
        response=Path(args.response),
        issue=args.issue,
        out=Path(args.out),
        context=Path(args.context),
        existing=None if args.existing is None else Path(args.existing),
        repo=args.repo,
        api_url=args.api_url,
    )


def run(options: AnswerOptions) -> int:
    """Write the comment and print the labels; 1 when the answer cannot be posted, 2 when refused."""
    return refusing(lambda say: _answer(options, say))


def _answer(options: AnswerOptions, say: Notices) -> int:
    from assistant.markers import marker_key
    from corrections.render.answer import draft_answer, posted, read_known
    from corrections.render.answer_look import looked, needs_state
    from corrections.render.model_answer import AnswerError

    try:
        known = read_known(options.context)
        response = options.response.read_text(encoding="utf-8", errors="replace")
    except AnswerError as error:
        raise Refused(str(error)) from error
    except OSError as error:
        raise Refused(f"--response: {options.response}: cannot be read: {error.strerror or error}") from error
    existing = None
    if options.existing is not None:
        try:
            existing = options.existing.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as error:
            raise Refused(
                f"--existing: {options.existing}: cannot be read: {error.strerror or error}"
            ) from error
    try:
        draft = draft_answer(response, issue=options.issue, known=known, existing=existing)
    except AnswerError as error:
        say.error(str(error))
        return 1
    repository = options.repo or known.repository or os.environ.get("GITHUB_REPOSITORY")
    state = None
    if needs_state(draft, known) and draft.duplicate_of is not None:
        from corrections.commands.action_step import api_url
        from corrections.commands.answer_target import target_state

        state, unseen = target_state(repository, draft.duplicate_of, options.api_url or api_url(os.environ))
        if unseen is not None:
            say.warning(f"second look: #{draft.duplicate_of} left out: {unseen}")
    draft, left_out = looked(draft, known, repository=repository, state=state)
    answer = posted(draft, issue=options.issue, known=known, left_out=left_out, key=marker_key())
    for warning in answer.warnings:
        say.warning(warning)
    write_atomic(options.out, answer.body)
    print(",".join(answer.labels), flush=True)
    return 0
