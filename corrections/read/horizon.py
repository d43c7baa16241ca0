"""The horizon past the window (pure): older lessons, from the scan pages read and one page more.

The window is the newest `max_analyzed` first analyses; a kind of mistake made rarely has left it
after that many analyses, whatever the ranker does. The horizon adds the older first analyses of
the scan pages read for the window, up to HORIZON in all. When those pages do not hold HORIZON
(a busy repository: the window of 30 is hours), the read asks one scan page more, the horizon
page, with its issues' bodies, beside the details round (no wave more, a point more): its issues
are read as that page shows them (their first timeline page, no 👎, no details round, no
permission look-up: a notice on them counts with the permissions known, since a look-up after the
page would be a wave more), so the read stays within 3 points and its waves. HORIZON = 200: in the 16-week loop at the busy rate, recurrences not
given for the `following` stand-in fell from 81 (the window alone) to 25 at 100 and 10 at 200.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from corrections.read.issue_read import IssueRead
from queries.requests import MAX_NODE_IDS

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


def one_request(first: Sequence[int], later: Sequence[int]) -> list[int]:
    """`first`, then `later` while one details request holds them (MAX_NODE_IDS ids)."""
    return [*first, *later[: max(0, MAX_NODE_IDS - len(first))]]


def asked_further(
    window: tuple[Sequence[int], Sequence[int]],
    beyond: Sequence[int],
    issues: Mapping[int, IssueRead],
    detailed: bool,
    page: Collection[int],
) -> tuple[list[int], list[int]]:
    """The issues whose next timeline page, and those whose body, a details round asks: the
    window's (and the undecided ones ranked in it), then the horizon's while one request holds
    them, their timelines in the first round only (`detailed`: a round was read; one page more
    at most), none of the horizon `page`'s (it brought them as they are). Past them a horizon line
    is ranked by its title."""
    analysed, undecided = window
    further = [number for number in beyond if number not in page]
    ahead = [number for number in [*analysed, *undecided] if issues[number].can_continue]
    later = [] if detailed else [number for number in further if issues[number].can_continue]
    return one_request(ahead, later), one_request(analysed, further)
