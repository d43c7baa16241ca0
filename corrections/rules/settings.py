"""What the rules depend on besides the issue: the configuration's part of them (pure).

`RuleSettings.from_config` is the one construction from a configuration; the vocabulary, read
from `labels.md` beside it, joins with `with_vocabulary`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from assistant.config import Config
from assistant.identity import Identity
from corrections.rules.vocabulary import Vocabulary


@dataclass(frozen=True)
class RuleSettings:
    """The configuration the rules depend on."""

    assistant: Identity = field(default_factory=Identity)
    command_word: str = "/assistant"
    duplicate_label: str = "possible-duplicate"
    vocabulary: Vocabulary = field(default_factory=Vocabulary)

    @classmethod
    def from_config(cls, config: Config) -> RuleSettings:
        """The settings of a configuration (no vocabulary yet: it is read from labels.md)."""
        return cls(
            assistant=config.assistant.identity,
            command_word=config.assistant.command,
            duplicate_label=config.assistant.duplicate_label,
        )

    def with_vocabulary(self, vocabulary: Vocabulary) -> RuleSettings:
        """The same settings with the vocabulary read from labels.md."""
        return replace(self, vocabulary=vocabulary)

    def is_duplicate_label(self, label: str) -> bool:
        """Whether `label` is the duplicate label (a duplicate notice's, never a label correction)."""
        return label.strip().casefold() == self.duplicate_label.strip().casefold()
