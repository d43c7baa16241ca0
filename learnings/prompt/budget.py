"""The learnings block's budget in characters, beside `[learnings] max_prompt_entries`: what
`corrections read` and the action write into learnings.md, and what `learnings render` previews
unless `--max-chars` says otherwise. Not a key of the configuration file.

Apart from learnings/prompt/block.py so that `learnings --help` shows it without loading the
renderer or the configuration.
"""

from __future__ import annotations

LEARNINGS_PROMPT_CHARS = 6_000
