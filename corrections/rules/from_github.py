"""From GitHub's answers (queries.models) to the rule models (corrections.rules.models): pure."""

from __future__ import annotations

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
from queries import models as gh


def actor(ref: gh.ActorRef | None) -> Actor | None:
    """An actor; None stands for a deleted account (GitHub's ghost)."""
    return None if ref is None else Actor(login=ref.login, typename=ref.typename)


def event(node: gh.TimelineNode) -> Event:
    """One timeline item."""
    if isinstance(node, gh.CommentNode):
        return Comment(
            node_id=node.id,
            database_id=node.database_id,
            at=node.created_at,
            author=actor(node.author),
            body=node.body,
            association=node.author_association,
            hidden=node.hidden,
        )
    if isinstance(node, gh.LabeledNode):
        return LabelChange(kind="labeled", at=node.created_at, actor=actor(node.actor), label=node.label.name)
    if isinstance(node, gh.UnlabeledNode):
        return LabelChange(
            kind="unlabeled", at=node.created_at, actor=actor(node.actor), label=node.label.name
        )
    if isinstance(node, gh.ClosedNode):
        duplicate_of = node.duplicate_of.number if node.duplicate_of is not None else None
        return Closed(
            at=node.created_at,
            actor=actor(node.actor),
            state_reason=node.state_reason,
            duplicate_of=duplicate_of,
        )
    if isinstance(node, gh.ReopenedNode):
        return Reopened(at=node.created_at, actor=actor(node.actor))
    kind = "marked_as_duplicate" if isinstance(node, gh.MarkedNode) else "unmarked_as_duplicate"
    canonical = node.canonical.number if node.canonical is not None else None
    return DuplicateMark(kind=kind, at=node.created_at, actor=actor(node.actor), canonical=canonical)


def events(page: gh.TimelinePage) -> tuple[Event, ...]:
    """The items of one timeline page (null items, which GitHub may send, are skipped)."""
    return tuple(event(node) for node in page.nodes if node is not None)


# The issue's fields that GitHub's answer and the rule model share by name, copied unchanged: a
# field added to both models (and to the .graphql) needs no line here.
_TAKEN_AS_IS = sorted((Issue.model_fields.keys() & gh.IssueNode.model_fields.keys()) - {"author"})


def issue(node: gh.IssueNode) -> Issue:
    """An issue with the first page of its timeline."""
    page = node.timeline_items
    return Issue(
        **{name: getattr(node, name) for name in _TAKEN_AS_IS},
        author=actor(node.author),
        events=events(page),
        timeline_complete=not page.page_info.has_next_page,
    )


def extend(current: Issue, page: gh.TimelinePage) -> Issue:
    """The issue with a later page of its timeline appended."""
    return current.model_copy(
        update={
            "events": current.events + events(page),
            "timeline_complete": not page.page_info.has_next_page,
        }
    )
