"""What the correction reader's round trips ask for: plain values, no I/O.

Kept apart from `queries.fetch` so that the pure scan state (`corrections.read.reading`) can say what
the next round must ask without importing the network stack (gql, aiohttp).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from assistant.identity import login_key

# REST permission look-ups in one call, one request each: a GITHUB_TOKEN has 1,000 REST
# requests an hour, so a popular issue's 150 unlisted 👎 must not spend 150 of them.
MAX_REST_LOOKUPS = 30
# What `queries.permissions.fetch_permissions_rest` puts in its `failures` for the logins its cap
# left unasked: GitHub answered every look-up that was sent, so this is no failure of GitHub's.
LOOKUPS_CAPPED = "REST look-up cap reached"
# GitHub refuses `nodes(ids:)` with more than 100 ids (ARGUMENT_LIMIT): a details round that asks
# more is sent as several requests, each with at most this many ids and timelines.
MAX_NODE_IDS = 100


@dataclass(frozen=True)
class FileRequest:
    """The base-branch files read with the first page (`REF:PATH` expressions).

    `config_path` (the action only): the configuration, read at the base ref through GitHub.
    """

    ref: str
    labels_path: str
    learnings_path: str | None
    config_path: str | None = None
    config_required: bool = False  # named explicitly: its absence is an error, not the defaults


@dataclass(frozen=True)
class DetailsRequest:
    """What one details round asks for; empty parts are left out of the request."""

    analysis_ids: tuple[str, ...] = ()
    bodies: tuple[str, ...] = ()  # node ids of the window's issues whose body is asked
    logins: tuple[str, ...] = ()
    timelines: tuple[tuple[int, str], ...] = ()  # (issue number, cursor after the pages read)
    reactions: tuple[tuple[str, str], ...] = ()  # (comment node id, cursor)
    paths: tuple[str, ...] = ()  # `REF:PATH` expressions whose existence is asked

    @property
    def empty(self) -> bool:
        """Nothing to ask."""
        return not (
            self.analysis_ids or self.bodies or self.logins or self.timelines or self.reactions or self.paths
        )

    def chunks(self, most: int = MAX_NODE_IDS) -> list[DetailsRequest]:
        """The round as requests of at most `most` analyses, bodies and timelines each; the
        logins, further reactions and paths ride with the first (a small round is one request)."""
        count = max(len(self.analysis_ids), len(self.bodies), len(self.timelines))
        if count <= most:
            return [self]
        return [
            DetailsRequest(
                analysis_ids=self.analysis_ids[start : start + most],
                bodies=self.bodies[start : start + most],
                timelines=self.timelines[start : start + most],
                logins=() if start else self.logins,
                reactions=() if start else self.reactions,
                paths=() if start else self.paths,
            )
            for start in range(0, count, most)
        ]

    @property
    def needs_repository(self) -> bool:
        """Whether any part lives under `repository` (which needs owner and name)."""
        return bool(self.logins or self.timelines or self.paths)


@dataclass(frozen=True)
class WindowAsk:
    """What one scan page asks for: the values of CorrectionWindow's variables.

    `files` (the first page only): the base-branch files read with it. `analysed`: the issue
    whose title and body are asked for in the same request. `shrinkable`: the caller asks again
    with smaller pages when GitHub cannot answer this size.
    """

    owner: str
    name: str
    after: str | None
    page_size: int
    timeline_size: int
    shrinkable: bool = False
    files: FileRequest | None = None
    analysed: int | None = None
    bodies: bool = False  # the issues' bodies with the page (the horizon page: no details round for them)

    def variables(self) -> dict[str, object]:
        """The operation's variables (values only as variables, never in the document)."""
        files = self.files
        return {
            "owner": self.owner,
            "name": self.name,
            "pageSize": self.page_size,
            "timelinePageSize": self.timeline_size,
            "after": self.after,
            "withFiles": files is not None,
            "labelsExpression": f"{files.ref}:{files.labels_path}" if files else "",
            "withLearnings": files is not None and files.learnings_path is not None,
            "learningsExpression": f"{files.ref}:{files.learnings_path}"
            if files and files.learnings_path
            else "",
            "withAnalysed": self.analysed is not None,
            "withBodies": self.bodies,
            "analysedNumber": self.analysed or 0,
            "withConfig": files is not None and files.config_path is not None,
            "configExpression": f"{files.ref}:{files.config_path}" if files and files.config_path else "",
        }


# GitHub's authorAssociation values of people with a relation to the repository: an ORDER of
# look-ups only, never proof of a permission (an organization MEMBER may have none here).
RELATED = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})


def lookup_order(
    logins: Iterable[str],
    *,
    first: Iterable[str] = (),
    associations: Mapping[str, str] | None = None,
    later: Iterable[str] = (),
) -> list[str]:
    """Logins in the order their permission is looked up, which strangers cannot choose.

    `first`: people a maintainer's action singles out (they labelled, closed or marked an issue,
    which GitHub lets triagers do; their command is read again); then those whose
    authorAssociation (`associations`, lower-cased login -> value) is OWNER, MEMBER or COLLABORATOR
    (an order only, never proof); then the rest; last, `later`: people already read as no pusher
    (answered 👀). Within each group, alphabetical (a stable order, not one that ranks anyone).
    With a cap on look-ups, a crowd of strangers fills the last places, not a maintainer's.
    """
    firsts = {login_key(login) for login in first}
    lasts = {login_key(login) for login in later}
    related = {login for login, value in (associations or {}).items() if value.upper() in RELATED}

    def rank(login: str) -> tuple[int, str]:
        key = login_key(login)
        group = 0 if key in firsts else 3 if key in lasts else 1 if key in related else 2
        return group, key

    return sorted(dict.fromkeys(logins), key=rank)
