"""`python -m corrections`: the same as the `corrections` console script."""

from corrections.commands.cli import entry

entry()
