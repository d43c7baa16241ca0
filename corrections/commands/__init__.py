"""The ends: the `corrections` subcommands and the action step. Nothing outside this folder imports them."""

# Each subcommand's line in the top --help, in its order: the top --help lists them without
# importing a subcommand's module; each module's SUMMARY is its line here.
SUMMARIES: dict[str, str] = {
    "read": "read the corrections of a repository into a context folder",
    "demo": "the whole job against the bundled demo repository, offline",
    "action": "the GitHub Action's step: configured by the environment GitHub Actions sets",
    "quality": "monthly quality numbers of the first analyses",
    "explain": "why one issue taught the assistant what it did",
    "backtest": "replay the last first analyses through your model, with and without the context",
    "init": "set your repository up: labels.md, instructions.md and the workflows, checked",
    "sync": "learnings sync, with a learning proposed for each decision made again and again",
    "prompt": "the context folder as one ready-to-send prompt, within a token budget",
    "answer": "the model's answer as a comment safe to post, with its marker, and the labels to apply",
    "marker": "print the hidden marker line that ends an analysis comment",
}
