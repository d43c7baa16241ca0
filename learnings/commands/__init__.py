"""The ends: the `learnings` subcommands, one module each, and what they share (local.py for the
local file, remote.py and pacing.py for GitHub). learnings/cli.py lists them; nothing else in
learnings imports them."""
