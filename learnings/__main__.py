"""`python -m learnings`: the same as the `learnings` console script."""

from learnings.cli import entry

entry()
