"""Reviewed learnings: the JSONL store, ranking and budget, the prompt block, suppressions, the CLI.

No I/O but the local file of the CLI: the text of the store on the base branch comes from
`queries/`, and everything here is a pure function of it.
"""
