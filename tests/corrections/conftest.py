"""A small builder of issues on plain models, for the rule tests (no server)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest

from corrections.rules.models import (
    Actor,
    Closed,
    Comment,
    DuplicateMark,
    Event,
    Issue,
    LabelChange,
    Reopened,
)
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import parse_vocabulary

ASSISTANT = Actor(login="triage-assistant", typename="Bot")
VOCABULARY = "- `bug`: broken\n- `enhancement`: new\n- `docs`: words\n- `question`: ask\n"


def marker(kind: str = "first", labels: tuple[str, ...] = ("bug",), duplicate_of: int | None = None) -> str:
    payload = {"v": 1, "kind": kind, "labels": list(labels), "duplicate_of": duplicate_of}
    return f"Analysis text.\n<!-- assistant:analysis {json.dumps(payload)} -->"


@dataclass
class IssueBuilder:
    """Appends timeline events one minute apart."""

    number: int = 1
    title: str = "Crash on start"
    state: str = "OPEN"
    state_reason: str | None = None
    events: list[Event] = field(default_factory=list)
    clock: datetime = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)

    def _tick(self) -> datetime:
        self.clock += timedelta(minutes=1)
        return self.clock

    def comment(self, author: Actor | None, body: str, node_id: str | None = None) -> IssueBuilder:
        node = node_id or f"C{len(self.events)}"
        self.events.append(
            Comment(node_id=node, database_id=len(self.events), at=self._tick(), author=author, body=body)
        )
        return self

    def analysis(self, **kwargs: object) -> IssueBuilder:
        return self.comment(ASSISTANT, marker(**kwargs), node_id="A" + str(len(self.events)))  # type: ignore[arg-type]

    def label(self, actor: Actor | None, name: str, added: bool = True) -> IssueBuilder:
        kind = "labeled" if added else "unlabeled"
        self.events.append(LabelChange(kind=kind, at=self._tick(), actor=actor, label=name))
        return self

    def close(
        self, actor: Actor | None, reason: str = "COMPLETED", duplicate_of: int | None = None
    ) -> IssueBuilder:
        self.events.append(
            Closed(at=self._tick(), actor=actor, state_reason=reason, duplicate_of=duplicate_of)
        )
        self.state, self.state_reason = "CLOSED", reason
        return self

    def reopen(self, actor: Actor | None) -> IssueBuilder:
        self.events.append(Reopened(at=self._tick(), actor=actor))
        self.state, self.state_reason = "OPEN", "REOPENED"
        return self

    def mark(self, actor: Actor | None, canonical: int, marked: bool = True) -> IssueBuilder:
        kind = "marked_as_duplicate" if marked else "unmarked_as_duplicate"
        self.events.append(DuplicateMark(kind=kind, at=self._tick(), actor=actor, canonical=canonical))
        return self

    def build(self) -> Issue:
        start = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)
        return Issue(
            number=self.number,
            title=self.title,
            created_at=start,
            updated_at=self.clock,
            state=self.state,
            state_reason=self.state_reason,
            events=tuple(self.events),
        )


@pytest.fixture
def settings() -> RuleSettings:
    return RuleSettings(vocabulary=parse_vocabulary(VOCABULARY))


@pytest.fixture
def issue() -> IssueBuilder:
    return IssueBuilder()
