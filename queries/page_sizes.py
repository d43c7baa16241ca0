"""How much one query asks for, and the rule for asking less after GitHub could not answer.

GitHub stops a query after 10 s ("Something went wrong while executing your query. This may be
the result of a timeout...") or refuses it with RESOURCE_LIMITS_EXCEEDED; a smaller query of the
same shape usually gets through. So the reader halves its page sizes (issues per scan page and
timeline items per issue, together) down to a floor, and keeps the smaller sizes for the rest of
the run. Pure: the job decides when to ask for less, this module only what "less" is.
"""

from __future__ import annotations

from dataclasses import dataclass

# GitHub's largest page (first: 100) is what a run asks for while GitHub keeps up.
FULL_PAGE = 100
# The least a page is shrunk to: smaller pages would multiply the requests of a scan; a query
# that fails at this size fails for another reason than its size.
MIN_ISSUES = 10
MIN_TIMELINE_ITEMS = 10


@dataclass(frozen=True)
class PageSizes:
    """Issues per scan page and timeline items per issue page."""

    issues: int = FULL_PAGE
    timeline: int = FULL_PAGE

    def halved(self) -> PageSizes | None:
        """Both sizes halved (each no lower than its floor); None when both are at the floor."""
        smaller = PageSizes(
            issues=max(MIN_ISSUES, self.issues // 2), timeline=max(MIN_TIMELINE_ITEMS, self.timeline // 2)
        )
        return None if smaller == self else smaller

    @property
    def can_shrink(self) -> bool:
        """Whether a failure of this size can be met by asking for less."""
        return self.halved() is not None

    @property
    def shrunk(self) -> bool:
        """Smaller than a full page, because GitHub could not answer a bigger query."""
        return self != PageSizes()

    def describe(self) -> str:
        """The sizes in words, for logs and summaries."""
        return f"{self.issues} issues with {self.timeline} timeline items each"
