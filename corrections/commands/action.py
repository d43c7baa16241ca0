"""`corrections action`: the GitHub Action's step, configured by the environment GitHub Actions sets.

No option: the step reads GITHUB_* and the INPUT_* variables action.yml passes
(corrections/commands/action_step.py, loaded when it runs).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

from corrections.commands import SUMMARIES

NAME = "action"
SUMMARY = SUMMARIES[NAME]  # its line of the top --help, kept in the package's table
DESCRIPTION = (
    "The step of action.yml: reads GITHUB_REPOSITORY, GITHUB_EVENT_PATH and the INPUT_* variables "
    "that action.yml passes (the token comes from the action's `token` input)."
)
EXAMPLES = ("uses: <this action>@v1   (in a workflow; see docs/action.md)",)
TOKEN = False


@dataclass(frozen=True)
class ActionOptions:
    """The environment the step reads (the process's, from the command line)."""

    environ: Mapping[str, str] = field(default_factory=dict)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """None: everything comes from the environment."""


def options_from(args: argparse.Namespace) -> ActionOptions:
    return ActionOptions(environ=os.environ)


def run(options: ActionOptions) -> int:
    """The whole step; its exit status (corrections/commands/action_step.py)."""
    from corrections.commands.action_step import run_action

    status = run_action(options.environ)
    sys.stdout.flush()
    return status
