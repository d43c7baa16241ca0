"""The prompt's budget: tokens (o200k_base, corrections/render/tokens.py) by default, or characters.

Apart from corrections/render/prompt.py so that `--help` and the action's input check know it without
loading the prompt's renderer or the tokenizer.

The default is set for the smallest budget an adopter meets, GitHub Models' free tier: 8,000 input
tokens a request (docs/corrections.md, "Budgets of the engines"). The reader's prompt takes
DEFAULT_MAX_TOKENS; the new issue, cut to NEW_ISSUE_MAX_TOKENS, and the adopter's instructions
(with the answer's format) share the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

ENGINE_INPUT_TOKENS = 8_000
DEFAULT_MAX_TOKENS = 4_500
NEW_ISSUE_MAX_TOKENS = 2_000
INSTRUCTIONS_TOKENS = ENGINE_INPUT_TOKENS - DEFAULT_MAX_TOKENS - NEW_ISSUE_MAX_TOKENS


class BudgetError(ValueError):
    """A budget that is not a positive number; the message names the option or input."""


@dataclass(frozen=True)
class Budget:
    """The caps the prompt must hold: tokens, characters, or both. Each is a hard cap."""

    max_tokens: int | None = DEFAULT_MAX_TOKENS
    max_chars: int | None = None

    @classmethod
    def of(cls, max_tokens: int | None, max_chars: int | None, *, names: tuple[str, str]) -> Budget:
        """The caps given (`names`: how the caller spells them); neither given: the default tokens."""
        for name, value in zip(names, (max_tokens, max_chars), strict=True):
            if value is not None and value <= 0:
                raise BudgetError(f"{name}: must be a positive number, got {value}")
        if max_tokens is None and max_chars is None:
            return cls()
        return cls(max_tokens=max_tokens, max_chars=max_chars)

    def describe(self) -> str:
        """The caps in words: `4,500 tokens`, `24,000 characters` or both."""
        parts = []
        if self.max_tokens is not None:
            parts.append(f"{self.max_tokens:,} token{'s' if self.max_tokens != 1 else ''}")
        if self.max_chars is not None:
            parts.append(f"{self.max_chars:,} character{'s' if self.max_chars != 1 else ''}")
        return " and ".join(parts)
