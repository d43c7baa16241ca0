"""Reviewed learnings: the JSONL store, ranking and budget, the prompt block, suppressions, the sync.

In stage folders, top first, each importing only the stages below it (tests/test_layout.py):
commands/ (the `learnings` subcommands, under the entry `cli.py`), sync/ (the round trips through
`queries/`: the sync, a proposal posted, a pull request's memory), prompt/ (the blocks the model
reads), store/ (the store's lines, its changes, the local file), rules/ (the models and the rules
on them, pure).
"""
