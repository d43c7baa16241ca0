"""The horizon past the window (pure): older lessons, from the scan pages read and one page more.

The window is the newest `max_analyzed` first analyses; a kind of mistake made rarely has left it
after that many analyses, whatever the ranker does. The horizon adds the older first analyses of
the scan pages read for the window, up to HORIZON in all. When those pages do not hold HORIZON
(a busy repository: the window of 30 is hours), the read asks one scan page more, the horizon
page, with its issues' bodies, beside the details round (no wave more, a point more): its issues
are read as that page shows them (their first timeline page, no 👎, no details round; the
permission of a person who decides a duplicate notice on them is looked up through REST, which
costs no point), so the read stays within 3 points. HORIZON = 200: in the 16-week loop at the busy rate, recurrences not
given for the `following` stand-in fell from 81 (the window alone) to 25 at 100 and 10 at 200.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from corrections.read.issue_read import IssueRead

HORIZON = 200


def past_window(
    order: Sequence[int], issues: Mapping[int, IssueRead], window: Sequence[int], size: int, horizon: int
) -> list[int]:
    """The issues with a first analysis after a full window of `size` (GitHub's order, newest
    activity first), up to `horizon` first analyses in all; none while the window is not full."""
    if len(window) < size:
        return []
    seen, found = set(window), list[int]()
    for number in order:
        if len(window) + len(found) >= horizon:
            break
        if number not in seen and issues[number].first is not None:
            found.append(number)
    return found


def wants_page(window: int, beyond: int, size: int, horizon: int) -> bool:
    """Whether the horizon wants its page: the window is full and, with the first analyses past it
    on the pages read, still short of the horizon."""
    return window >= size and window + beyond < horizon
