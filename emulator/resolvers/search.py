"""Issue search: the qualifiers, words and sorts of GitHub's ``search(type: ISSUE)`` the emulator serves."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from emulator.store import Store
from emulator.world import CommentItem

SEARCH_LIMIT = 1000


_QUALIFIER = re.compile(r'(-?)(\w+):("[^"]*"|\S+)')


def search_numbers(store: Store, query: str) -> list[int] | None:
    """Issue/PR numbers a search query matches, in its sort; None when ``repo:`` names another repository.

    Supports repo:, is:issue/pr/open/closed, type:, state:, author:, commenter:, label:,
    updated:/created: with >=, >, <=, < or A..B, sort:updated/created-asc/desc, and words.
    """
    tests: list[Any] = []
    sort = ("updated", "desc")
    words = _QUALIFIER.sub(" ", query).split()
    for negate, raw_key, raw in _QUALIFIER.findall(query):
        value = raw.strip('"')
        key = raw_key.lower()
        test: Any = None
        if key == "repo":
            if value.lower() != store.name_with_owner.lower():
                return None
        elif key in ("is", "type", "state"):
            test = _is_test(store, value.lower())
        elif key == "author":
            test = lambda n, v=value: (store.items[n].author or "").lower().removesuffix("[bot]") == _login(v)  # noqa: E731
        elif key == "commenter":
            test = lambda n, v=value: any(  # noqa: E731
                isinstance(i, CommentItem) and (i.author or "").lower().removesuffix("[bot]") == _login(v)
                for i in store.items[n].timeline
            )
        elif key == "label":
            test = lambda n, v=value: v.lower() in {x.lower() for x in store.derived(n).labels}  # noqa: E731
        elif key in ("updated", "created"):
            test = _date_test(store, key, value)
        elif key == "sort":
            field, _, direction = value.lower().partition("-")
            sort = (field, direction or "desc")
        if test is not None:
            tests.append((lambda n, t=test: not t(n)) if negate else test)
    for word in words:
        tests.append(
            lambda n, w=word.lower(): w in store.items[n].title.lower() or w in store.items[n].body.lower()  # noqa: B008
        )
    numbers = [n for n in store.items if all(test(n) for test in tests)]
    if sort[0] == "created":
        numbers.sort(key=lambda n: (store.items[n].created_at, n), reverse=sort[1] == "desc")
    elif sort[0] == "comments":
        numbers.sort(key=lambda n: (store.derived(n).comment_count, n), reverse=sort[1] == "desc")
    else:
        numbers.sort(key=lambda n: (store.derived(n).updated_at, n), reverse=sort[1] == "desc")
    return numbers[:SEARCH_LIMIT]


def _login(value: str) -> str:
    return value.lower().removeprefix("app/").removesuffix("[bot]")


def _is_test(store: Store, value: str) -> Any:
    return {
        "issue": lambda n: not store.is_pull(n),
        "pr": store.is_pull,
        "open": lambda n: not store.derived(n).closed,
        "closed": lambda n: store.derived(n).closed,
    }.get(value)


def _date_test(store: Store, key: str, value: str) -> Any:
    """A test of ``updated:``/``created:`` qualifiers; a bare date covers its whole day."""

    def moment(n: int) -> datetime:
        return store.derived(n).updated_at if key == "updated" else store.items[n].created_at

    def start(text: str) -> datetime:
        moment_ = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return moment_ if moment_.tzinfo else moment_.replace(tzinfo=UTC)

    def end(text: str) -> datetime:
        return start(text) + (timedelta(days=1) if "T" not in text else timedelta(0))

    if ".." in value:
        low, high = value.split("..", 1)
        low_at = None if low in ("", "*") else start(low)
        high_at = None if high in ("", "*") else end(high)
        return lambda n: (
            (low_at is None or moment(n) >= low_at)
            and (high_at is None or moment(n) < high_at or ("T" in high and moment(n) == high_at))
        )
    for op in (">=", "<=", ">", "<"):
        if value.startswith(op):
            text = value[len(op) :]
            if op == ">=":
                return lambda n: moment(n) >= start(text)
            if op == ">":
                return lambda n: moment(n) >= end(text) if "T" not in text else moment(n) > start(text)
            if op == "<=":
                return lambda n: moment(n) < end(text) if "T" not in text else moment(n) <= start(text)
            return lambda n: moment(n) < start(text)
    return lambda n: start(value) <= moment(n) < end(value)
