"""What the sync's scan reads, as the learnings write path uses it: each thread (an issue or a pull
request with its comments, reviews and review threads), the scan's marks, and the scan itself.

Apart from queries.sync_fetch (the scan's round trips) so that queries.sync_history, which reads
a thread back to its mark, builds on the same types without importing the scan.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from queries.page_sizes import SourceSizes
from queries.sync_models import ThreadComment


@dataclass(frozen=True)
class Thread:
    """An issue or pull request with its newest comments (oldest of them first)."""

    kind: Literal["issue", "pull_request"]
    number: int
    updated_at: datetime
    comments: tuple[ThreadComment, ...]
    older_comments: bool  # comments older than these were not read
    # Pull requests: the newest reviews' bodies, and the newest review threads, each its first
    # comments (the first starts the thread, a finding of the assistant; the others reply to it).
    reviews: tuple[ThreadComment, ...] = ()
    review_threads: tuple[tuple[ThreadComment, ...], ...] = ()
    older_reviews: bool = False  # reviews, threads or thread comments beyond these were not read
    comments_before: str | None = None  # the cursor of the oldest comment read (to read back from)


@dataclass(frozen=True)
class Marks:
    """The scan's high-water marks: everything updated at or before them was read.

    Issues are read oldest activity first from their mark, so it moves with every page; pull
    requests newest first down to theirs, so it moves only when that stream reached it.
    """

    issues: datetime | None = None
    pulls: datetime | None = None
    # Node ids of proposals found waiting for a 👍: a reaction does not move an issue's updatedAt,
    # so they are read again by id until decided.
    pending: tuple[str, ...] = ()
    # Answers to commands owed beyond a run's cap: (comment node id, reaction content).
    answers: tuple[tuple[str, str], ...] = ()
    # A pull request stream that a budget stopped: where it goes on (the cursor after the last
    # page read, newest first) and the newest time it had read, the mark once it reaches `pulls`.
    pulls_after: str | None = None
    pulls_top: datetime | None = None


@dataclass(frozen=True)
class Scan:
    """What the scan read, how far (`marks`), and what it left for the next run."""

    threads: tuple[Thread, ...]
    complete: bool  # both streams reached their end or their mark
    pages: int
    points: int  # what the scan's requests cost (rateLimit.cost)
    marks: Marks
    issues_left: int  # issues updated after the new mark, known not read (totalCount)
    pulls_left: bool  # the pull request stream stopped before its mark
    sizes: SourceSizes
    notes: tuple[str, ...] = ()  # what reading the threads back left (queries.sync_history)
