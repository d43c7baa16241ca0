"""`corrections prompt`: the context folder as one ready-to-send prompt, within a token budget.

Sends nothing; light at import, the prompt's renderer (jinja2) loads when it runs.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from assistant.files import write_atomic
from commandline.arguments import issue_number
from commandline.notices import Notices
from commandline.usage import FAILED
from corrections.commands import SUMMARIES
from corrections.commands.refusal import Refused, refusing
from corrections.render.prompt_budget import DEFAULT_MAX_TOKENS, Budget, BudgetError

NAME = "prompt"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "Put the guidance, corrections.md, learnings.md and, within the budget, excerpts of "
    "issues/<n>.md (the corrected issues first) into one text for a model that reads only its "
    "prompt, and with --event the issue being analysed at its end. An excerpt is kept whole, cut "
    "between whole lines, or left out, and the prompt says which. The budget is a hard cap: tokens "
    "as GPT-4o's tokenizer (o200k_base) counts them, or characters; when the guidance, corrections, "
    "learnings and new issue alone exceed it, nothing is written and the exit status is 1. Its "
    "size (characters and tokens) goes to stderr."
)
EXAMPLES = (
    "corrections prompt --context corrections-context --issue 61 --out prompt.md",
    'corrections prompt --context "$CONTEXT" --event "$GITHUB_EVENT_PATH" --out prompt.md',
)
TOKEN = False


@dataclass(frozen=True)
class PromptOptions:
    """The folder `corrections read` wrote, the issue being analysed, the budget, where it goes."""

    context: Path = Path("corrections-context")
    issue: int | None = None
    event: Path | None = None
    max_tokens: int | None = None
    max_chars: int | None = None
    out: Path | None = None  # None: stdout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--context",
        default="corrections-context",
        metavar="DIR",
        help="the folder `corrections read` wrote, its --out (default: %(default)s)",
    )
    parser.add_argument(
        "--issue",
        type=issue_number,
        metavar="N",
        help="the issue being analysed: named in the prompt, its own excerpt left out (41 or '#41')",
    )
    parser.add_argument(
        "--event",
        metavar="FILE",
        help="the workflow's event payload ($GITHUB_EVENT_PATH of an `issues` event): the issue being "
        "analysed goes at the end of the prompt, its title, author and body cleaned and fenced like "
        "every other text a stranger wrote (default: none; its number is --issue's when not given)",
    )
    parser.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help=f"tokens (o200k_base) the whole prompt may take (default: {DEFAULT_MAX_TOKENS}, "
        "unless --max-chars is given)",
    )
    parser.add_argument(
        "--max-chars", type=int, metavar="N", help="characters the whole prompt may take (default: no cap)"
    )
    parser.add_argument("--out", metavar="FILE", help="write the prompt to FILE (default: stdout)")


def options_from(args: argparse.Namespace) -> PromptOptions:
    return PromptOptions(
        context=Path(args.context),
        issue=args.issue,
        event=Path(args.event) if args.event else None,
        max_tokens=args.max_tokens,
        max_chars=args.max_chars,
        out=Path(args.out) if args.out else None,
    )


def run(options: PromptOptions) -> int:
    """Write the prompt; 1 when its fixed parts alone exceed the budget, 2 when refused."""
    return refusing(lambda say: _prompt(options, say))


def _prompt(options: PromptOptions, say: Notices) -> int:
    from commandline.event import EventError
    from corrections.render.context_folder import PromptError, read_context
    from corrections.render.prompt import assemble_prompt

    try:
        budget = Budget.of(options.max_tokens, options.max_chars, names=("--max-tokens", "--max-chars"))
    except BudgetError as error:
        raise Refused(str(error)) from error
    try:
        context = read_context(options.context)
    except PromptError as error:
        raise Refused(str(error)) from error
    for warning in context.warnings:
        say.warning(warning)
    issue, section = options.issue, None
    if options.event is not None:
        from corrections.render.new_issue import new_issue_section, read_event

        try:
            new_issue = read_event(options.event, options.issue)
        except EventError as error:
            raise Refused(f"--event: {error}") from error
        issue, section = new_issue.number, new_issue_section(new_issue)
    prompt = assemble_prompt(context, issue=issue, budget=budget, new_issue=section)
    if prompt.over_budget:
        say.error(
            f"the guidance, corrections and learnings alone take {prompt.size()}, over the budget of "
            f"{budget.describe()}: no prompt written (raise the budget, or lower [learnings] "
            "max_prompt_entries or [context] max_analyzed)"
        )
        return FAILED
    if options.out is not None:
        write_atomic(options.out, prompt.text)
    else:
        sys.stdout.write(prompt.text)
        sys.stdout.flush()
    print(f"corrections: prompt: {prompt.describe()}", file=sys.stderr, flush=True)
    return 0
