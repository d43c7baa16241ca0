"""The commands around one analysis: `corrections prompt` (what the model reads before it),
`corrections answer` (the model's answer made safe to post) and `corrections marker` (the line that
ends it).

Neither talks to GitHub. Their arguments are declared here, light; the prompt's renderer (jinja2)
and the marker's model (pydantic) load only when the command runs. A usage error is one line on
stderr and exit 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.files import write_atomic
from commandline.arguments import issue_number
from commandline.event import EventError
from commandline.notices import Notices
from commandline.usage import FAILED
from corrections.render.prompt_budget import DEFAULT_MAX_TOKENS, Budget, BudgetError

if TYPE_CHECKING:
    from corrections.rules.analysis_marker import Receipt

NAMES = frozenset({"prompt", "answer", "marker"})
Command = Callable[..., argparse.ArgumentParser]


class _Refused(ValueError):
    """What the command cannot do as asked; the message is the one line shown."""


def add_parsers(commands: Any, command: Command) -> None:
    """Register `prompt`, `answer` and `marker`; `command` makes a subcommand in the CLI's help style."""
    prompt = command(
        commands,
        "prompt",
        "the context folder as one ready-to-send prompt, within a token budget",
        "Put the guidance, corrections.md, learnings.md and, within the budget, excerpts of "
        "issues/<n>.md (the corrected issues first) into one text for a model that reads only its "
        "prompt, and with --event the issue being analysed at its end. An excerpt is kept whole, cut "
        "between whole lines, or left out, and the prompt says which. The budget is a hard cap: tokens "
        "as GPT-4o's tokenizer (o200k_base) counts them, or characters; when the guidance, corrections, "
        "learnings and new issue alone exceed it, nothing is written and the exit status is 1. Its "
        "size (characters and tokens) goes to stderr.",
        "corrections prompt --context corrections-context --issue 61 --out prompt.md",
        'corrections prompt --context "$CONTEXT" --event "$GITHUB_EVENT_PATH" --out prompt.md',
    )
    prompt.add_argument(
        "--context",
        default="corrections-context",
        metavar="DIR",
        help="the folder `corrections read` wrote, its --out (default: %(default)s)",
    )
    prompt.add_argument(
        "--issue",
        type=issue_number,
        metavar="N",
        help="the issue being analysed: named in the prompt, its own excerpt left out (41 or '#41')",
    )
    prompt.add_argument(
        "--event",
        metavar="FILE",
        help="the workflow's event payload ($GITHUB_EVENT_PATH of an `issues` event): the issue being "
        "analysed goes at the end of the prompt, its title, author and body cleaned and fenced like "
        "every other text a stranger wrote (default: none; its number is --issue's when not given)",
    )
    prompt.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help=f"tokens (o200k_base) the whole prompt may take (default: {DEFAULT_MAX_TOKENS}, "
        "unless --max-chars is given)",
    )
    prompt.add_argument(
        "--max-chars", type=int, metavar="N", help="characters the whole prompt may take (default: no cap)"
    )
    prompt.add_argument("--out", metavar="FILE", help="write the prompt to FILE (default: stdout)")
    _add_answer(commands, command)
    marker = command(
        commands,
        "marker",
        "print the hidden marker line that ends an analysis comment",
        "Print `<!-- assistant:analysis {JSON} -->` for the labels the analysis puts forward and its "
        "duplicate notice, exactly as the reader parses it. Put the line alone at the end of the "
        "comment. With ASSISTANT_MARKER_KEY set, --issue is required and the marker is sealed for "
        "that issue.",
        "corrections marker --labels bug,crash --duplicate-of 120",
        "corrections marker --labels bug --context corrections-context   # with its receipt",
    )
    marker.add_argument(
        "--labels",
        action="append",
        default=[],
        metavar="NAMES",
        help="label names, comma-separated (bug,crash); may be repeated; '' means none",
    )
    marker.add_argument(
        "--duplicate-of", type=issue_number, metavar="N", help="the issue this one duplicates (120 or '#120')"
    )
    marker.add_argument(
        "--issue", type=issue_number, metavar="N", help="the issue the comment goes on (seals the marker)"
    )
    marker.add_argument(
        "--follow-up", action="store_true", help="a follow-up analysis (default: a first analysis)"
    )
    marker.add_argument(
        "--context",
        metavar="DIR",
        help="the folder `corrections read` wrote for this analysis: the marker's receipt names the "
        "issues of its correction lines and the learnings of its learnings block (default: no receipt)",
    )


def _add_answer(commands: Any, command: Command) -> None:
    answer = command(
        commands,
        "answer",
        "the model's answer as a comment safe to post, with its marker, and the labels to apply",
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
        "Exit 1, writing nothing, when the answer is not a JSON object.",
        'labels=$(corrections answer --response "$RESPONSE_FILE" --issue 61 --context "$CONTEXT" '
        '--out "$RUNNER_TEMP/comment.md")',
    )
    answer.add_argument("--response", required=True, metavar="FILE", help="the model's answer")
    answer.add_argument(
        "--issue", required=True, type=issue_number, metavar="N", help="the issue analysed (61 or '#61')"
    )
    answer.add_argument(
        "--context",
        default="corrections-context",
        metavar="DIR",
        help="the folder `corrections read` wrote: its vocabulary and the issues a comment may "
        "reference (default: %(default)s)",
    )
    answer.add_argument(
        "--existing",
        metavar="FILE",
        help="the repository's labels, one a line (`gh label list --json name --jq '.[].name'`): a "
        "label of labels.md not among them is left out of the marker and of the labels to apply, and "
        "a warning names it (default: not checked)",
    )
    answer.add_argument(
        "--repo",
        metavar="OWNER/NAME",
        help="the repository, for the second look's request (default: the context's, as "
        "`corrections read` wrote it, else GITHUB_REPOSITORY)",
    )
    answer.add_argument(
        "--api-url",
        metavar="URL",
        help="GitHub's GraphQL endpoint, for the second look's request (default: GITHUB_GRAPHQL_URL, "
        "else github.com's)",
    )
    answer.add_argument("--out", required=True, metavar="FILE", help="write the comment to post to FILE")


def _answer(args: argparse.Namespace, say: Notices) -> int:
    from assistant.markers import marker_key
    from corrections.render.answer import draft_answer, posted, read_known
    from corrections.render.answer_look import looked, needs_state
    from corrections.render.model_answer import AnswerError

    try:
        known = read_known(Path(args.context))
        response = Path(args.response).read_text(encoding="utf-8", errors="replace")
    except AnswerError as error:
        raise _Refused(str(error)) from error
    except OSError as error:
        raise _Refused(f"--response: {args.response}: cannot be read: {error.strerror or error}") from error
    existing = None
    if args.existing is not None:
        try:
            existing = Path(args.existing).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as error:
            raise _Refused(
                f"--existing: {args.existing}: cannot be read: {error.strerror or error}"
            ) from error
    try:
        draft = draft_answer(response, issue=args.issue, known=known, existing=existing)
    except AnswerError as error:
        say.error(str(error))
        return 1
    repository = args.repo or known.repository or os.environ.get("GITHUB_REPOSITORY")
    state = None
    if needs_state(draft, known) and draft.duplicate_of is not None:
        from corrections.commands.action import api_url
        from corrections.commands.answer_target import target_state

        state, unseen = target_state(repository, draft.duplicate_of, args.api_url or api_url(os.environ))
        if unseen is not None:
            say.warning(f"second look: #{draft.duplicate_of} left out: {unseen}")
    draft, left_out = looked(draft, known, repository=repository, state=state)
    answer = posted(draft, issue=args.issue, known=known, left_out=left_out, key=marker_key())
    for warning in answer.warnings:
        say.warning(warning)
    write_atomic(Path(args.out), answer.body)
    print(",".join(answer.labels), flush=True)
    return 0


def marker_labels(values: Sequence[str]) -> list[str]:
    """The label names of `--labels` values: split at commas, trimmed; `--labels ''` means none."""
    names: list[str] = []
    for value in values:
        if not value.strip():
            continue
        parts = [part.strip() for part in value.split(",")]
        if not all(parts):
            raise _Refused(f"--labels: an empty label name in {value!r}")
        names += parts
    return names


def _folder_receipt(folder: Path) -> Receipt:
    """The receipt of the context folder `--context` names, from its corrections.json read by the
    file's one decoder (no link followed); pydantic loads only with `--context`."""
    from corrections.render.context_folder import PromptError, read_index

    try:
        return read_index(folder).receipt(folder / "corrections.json")
    except PromptError as error:
        raise _Refused(str(error)) from error


def _marker(args: argparse.Namespace) -> int:
    from assistant.markers import KEY_VARIABLE, marker_key
    from corrections.rules.analysis_marker import MarkerError, analysis_marker

    key = marker_key()
    if key is not None and args.issue is None:
        raise _Refused(f"--issue: required with {KEY_VARIABLE} set (the seal names the issue)")
    try:
        receipt = _folder_receipt(Path(args.context)) if args.context is not None else None
        line = analysis_marker(
            marker_labels(args.labels),
            args.duplicate_of,
            kind="follow-up" if args.follow_up else "first",
            context=receipt,
            number=args.issue,
            key=key,
        )
    except MarkerError as error:
        raise _Refused(str(error).replace("duplicate_of:", "--duplicate-of:")) from error
    print(line, flush=True)
    return 0


def _prompt(args: argparse.Namespace, say: Notices) -> int:
    from corrections.render.context_folder import PromptError, read_context
    from corrections.render.prompt import assemble_prompt

    try:
        budget = Budget.of(args.max_tokens, args.max_chars, names=("--max-tokens", "--max-chars"))
    except BudgetError as error:
        raise _Refused(str(error)) from error
    try:
        context = read_context(Path(args.context))
    except PromptError as error:
        raise _Refused(str(error)) from error
    for warning in context.warnings:
        say.warning(warning)
    issue, section = args.issue, None
    if args.event:
        from corrections.render.new_issue import new_issue_section, read_event

        try:
            new_issue = read_event(Path(args.event), args.issue)
        except EventError as error:
            raise _Refused(f"--event: {error}") from error
        issue, section = new_issue.number, new_issue_section(new_issue)
    prompt = assemble_prompt(context, issue=issue, budget=budget, new_issue=section)
    if prompt.over_budget:
        say.error(
            f"the guidance, corrections and learnings alone take {prompt.size()}, over the budget of "
            f"{budget.describe()}: no prompt written (raise the budget, or lower [learnings] "
            "max_prompt_entries or [context] max_analyzed)"
        )
        return FAILED
    if args.out:
        write_atomic(Path(args.out), prompt.text)
    else:
        sys.stdout.write(prompt.text)
        sys.stdout.flush()
    print(f"corrections: prompt: {prompt.describe()}", file=sys.stderr, flush=True)
    return 0


def run(args: argparse.Namespace) -> int:
    """Run `prompt`, `answer` or `marker`; 0 done, 1 when the model's answer cannot be posted, 2 with
    one line on stderr when refused."""
    # stdout carries the prompt or the marker line: every notice, annotations included, goes to stderr.
    say = Notices("corrections", stdout=sys.stderr)
    try:
        if args.command == "answer":
            return _answer(args, say)
        return _marker(args) if args.command == "marker" else _prompt(args, say)
    except _Refused as error:
        say.error(str(error))
        return 2
    finally:
        say.close()
