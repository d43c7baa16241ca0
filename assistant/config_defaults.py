"""The defaults of the configuration keys that decide a read's first request, as plain values.

The first request is built from these when nothing is configured, without building a
configuration at all (corrections/scan_asks.py); assistant/config.py takes these keys' defaults
from here (one definition each), so the two agree.
"""

from __future__ import annotations

MAX_ANALYZED = 30  # [context] max_analyzed
SCAN_PAGES = 5  # [context] scan_pages
LABELS_FILE = ".github/assistant/labels.md"  # [context] labels_file
LEARNINGS_ENABLED = True  # [learnings] enabled
LEARNINGS_FILE = ".github/assistant/learnings.jsonl"  # [learnings] file
