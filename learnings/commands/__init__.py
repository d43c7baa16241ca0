"""The ends: the `learnings` subcommands, one module each, and what they share (local.py for the
local file, remote.py and pacing.py for GitHub). learnings/cli.py lists them; nothing else in
learnings imports them."""

# Each subcommand's line in the top --help, in its order: the top --help lists them without
# importing a subcommand's module; each module's SUMMARY is its line here.
SUMMARIES: dict[str, str] = {
    "list": "every learning, stale ones flagged",
    "show": "one learning, every field",
    "add": "add a learning (or update the one with the same text); prints its id",
    "edit": "change a learning's text or paths in place (same id; only its line of the file changes)",
    "remove": "retire a learning (it stays in the file, marked retired)",
    "export": "the learnings as JSONL on stdout",
    "import": "merge another learnings file (the same text is updated, not copied)",
    "render": "the prompt block for changed paths, as the assistant would read it",
    "sync": "commands and 👍 proposals into one learnings pull request",
    "propose": "post a learning proposal that a pusher's 👍 accepts",
    "memory": "a pull request's memory (the assistant's snapshot)",
}
