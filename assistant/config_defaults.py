"""The defaults of the configuration keys that decide a read's first request, as plain values.

That request is sent before pydantic (the configuration's validator) is loaded, so what it asks
for when the configuration is the defaults must be known without the models; assistant/config.py
takes these keys' defaults from here (one definition each).
"""

from __future__ import annotations

MAX_ANALYZED = 30  # [context] max_analyzed
SCAN_PAGES = 5  # [context] scan_pages
LABELS_FILE = ".github/assistant/labels.md"  # [context] labels_file
LEARNINGS_ENABLED = True  # [learnings] enabled
LEARNINGS_FILE = ".github/assistant/learnings.jsonl"  # [learnings] file
