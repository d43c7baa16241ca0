"""The prompt's default budget and how its tokens are estimated.

Apart from corrections/prompt.py so that `--help` and the action's input check know them without
loading the prompt's renderer.
"""

from __future__ import annotations

# 24,000 characters is about 6,000 tokens: with the adopter's instructions and the new issue's
# text it stays inside the 8,000 input tokens a request may carry on GitHub Models' free tier.
DEFAULT_MAX_CHARS = 24_000
# The estimate of tokens: about four characters a token for English text (fewer for code,
# escaped text and non-Latin scripts, so the estimate is on the low side for those).
CHARS_PER_TOKEN = 4
