"""The ends: the `corrections` subcommands and the action step. Nothing outside this folder imports them."""
