"""The default time budget of one read: a constant the command lines show in their help before
any network code loads (queries.retry, the policy that spends it, imports it from here)."""

from __future__ import annotations

# A workflow step that waits longer for context than the analysis itself takes is worse than an
# analysis without corrections.
DEFAULT_BUDGET = 45.0
