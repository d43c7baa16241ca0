"""The horizon past the window (pure): older lessons the scan pages already hold.

The window is the newest `max_analyzed` first analyses; a kind of mistake made rarely has left it
after that many analyses, whatever the ranker does. The horizon adds the older first analyses of
the scan pages read for the window, up to HORIZON in all (the widest window, a receipt's most), at
no scan page more: their first timeline pages are read already, and the details round that asks
the window's bodies asks theirs in the same requests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from corrections.read.issue_read import IssueRead

HORIZON = 100


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
