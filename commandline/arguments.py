"""Argument types and help text that both command lines share (argparse, no network)."""

from __future__ import annotations

import argparse
import re

from commandline.token import ENVIRONMENT_HELP

_ISSUE = re.compile(r"^#?([0-9]{1,10})$")
REPO_HELP = (
    "the repository, OWNER/NAME (default: the `origin` remote of the git checkout you are in, "
    "when it is on GitHub)"
)


def issue_number(text: str) -> int:
    """An issue or pull request number as people write it: `41` or `#41`."""
    match = _ISSUE.match(text.strip())
    if match is None or int(match.group(1)) < 1:
        raise argparse.ArgumentTypeError(f"expected an issue number such as 41 or '#41', got {text!r}")
    return int(match.group(1))


def epilog(*examples: str, token: bool = True) -> str:
    """The end of a command's --help: where the token comes from, then examples."""
    lines = [ENVIRONMENT_HELP, ""] if token else []
    lines += ["Example:" if len(examples) == 1 else "Examples:", *[f"  {example}" for example in examples]]
    return "\n".join(lines)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and examples kept as written (line breaks matter in examples)."""
