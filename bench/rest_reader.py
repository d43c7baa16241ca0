"""A REST reader of the same rules, written as a careful client would (the obvious REST design).

The newest comments of the repository page by page (`Link` pagination) give the window: the
issues with a first analysis among them, by newest comment. Then, up to 10 requests at once,
each window issue (title, state) and its timeline, the 👎 of analyses whose rollup shows one, and
the permission of each person who matters. The answers become `corrections.rules.models.Issue` and
the product's pure rules (`corrections.rules`) decide, so only the reading differs.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote

import aiohttp

from assistant.config import Config
from assistant.identity import is_person, normalize_login
from corrections.read.issue_read import MAX_TIMELINE_PAGES
from corrections.read.reading import MAX_REACTION_PAGES
from corrections.rules.duplicates import duplicate_deciders
from corrections.rules.issue import correct, first_analysis
from corrections.rules.markers import MarkerError, parse_analysis
from corrections.rules.models import (
    Actor,
    Closed,
    Comment,
    DuplicateMark,
    Event,
    Issue,
    IssueCorrection,
    LabelChange,
    Permission,
    Reaction,
    Reopened,
)
from corrections.rules.settings import RuleSettings
from corrections.rules.vocabulary import parse_vocabulary

GHOST_ID = 10137  # GitHub's stand-in for deleted accounts: not a person
PER_PAGE = 100
_NEXT = re.compile(r'<([^>]+)>;\s*rel="next"')
_LEVELS = {level.value for level in Permission}


class RestError(RuntimeError):
    """GitHub answered a REST request with an error status; the message names the request."""


@dataclass
class RestOutcome:
    """The window, the corrections of its issues (window order) and what the reading cost."""

    window: list[int] = field(default_factory=list)
    corrections: list[IssueCorrection] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    requests: int = 0
    bytes: int = 0
    objects: int = 0  # JSON objects received (list items, or one per object answer)


def next_link(header: str | None) -> str | None:
    """The `rel="next"` URL of a `Link` header."""
    match = _NEXT.search(header or "")
    return match.group(1) if match else None


def actor(user: dict[str, Any] | None) -> Actor | None:
    """A REST user as the rules' actor; `ghost` (a deleted account) is None, as in GraphQL."""
    if not user or (user.get("login") == "ghost" and user.get("id") == GHOST_ID):
        return None
    return Actor(login=str(user["login"]), typename=str(user.get("type") or "User"))


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def event(item: dict[str, Any]) -> Event | None:
    """One REST timeline item as a rule event; kinds the rules do not read are None."""
    kind = item.get("event")
    if kind == "commented":
        return Comment(
            node_id=str(item["node_id"]),
            database_id=int(item["id"]),
            at=_time(item["created_at"]),
            author=actor(item.get("user") or item.get("actor")),
            body=item.get("body") or "",
        )
    at = _time(item["created_at"])
    who = actor(item.get("actor"))
    if kind in ("labeled", "unlabeled"):
        return LabelChange(kind=kind, at=at, actor=who, label=str(item["label"]["name"]))
    if kind == "closed":
        reason = item.get("state_reason")
        return Closed(at=at, actor=who, state_reason=reason.upper() if reason else None)
    if kind == "reopened":
        return Reopened(at=at, actor=who)
    if kind in ("marked_as_duplicate", "unmarked_as_duplicate"):
        return DuplicateMark(kind=kind, at=at, actor=who)
    return None


def permission_level(answer: dict[str, Any]) -> Permission | None:
    """`role_name` when GitHub gives one of the five roles, else the legacy `permission`."""
    for key in ("role_name", "permission"):
        value = str(answer.get(key) or "").upper()
        if value in _LEVELS:
            return Permission(value)
    return None


class RestReader:
    """One run of the REST reader against one repository."""

    def __init__(
        self, base_url: str, token: str, owner: str, name: str, config: Config, *, concurrency: int = 10
    ):
        self.root = f"{base_url.rstrip('/')}/repos/{quote(owner)}/{quote(name)}"
        self.token = token
        self.config = config
        self.gate = asyncio.Semaphore(concurrency)
        self.outcome = RestOutcome()
        self.permissions: dict[str, Permission] = {}
        self._asked: dict[str, asyncio.Task[None]] = {}
        self._session: aiohttp.ClientSession | None = None
        self.settings = RuleSettings.from_config(config)

    async def _get(self, url: str, params: dict[str, str] | None = None) -> tuple[Any, str | None]:
        """One GET (at most `concurrency` at once): the JSON and the next page's URL."""
        assert self._session is not None
        async with self.gate, self._session.get(url, params=params) as response:
            raw = await response.read()
            self.outcome.requests += 1
            self.outcome.bytes += len(raw)
            if response.status == 404:
                return None, None
            if response.status >= 400:
                raise RestError(f"GET {url}: HTTP {response.status}")
            answer = json.loads(raw)
            self.outcome.objects += len(answer) if isinstance(answer, list) else 1
            return answer, next_link(response.headers.get("Link"))

    async def _pages(self, url: str, params: dict[str, str], cap: int) -> list[Any]:
        """Every item of a paginated list, following `Link: rel="next"` up to `cap` pages."""
        items: list[Any] = []
        next_url: str | None = url
        for page in range(cap):
            assert next_url is not None
            found, next_url = await self._get(next_url, params if page == 0 else None)
            items += found or []
            if next_url is None:
                break
        return items

    async def read(self) -> RestOutcome:
        """The whole run."""
        headers = {
            "Authorization": f"Bearer {self.token}",
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
        }
        async with aiohttp.ClientSession(headers=headers) as self._session:
            labels_task = asyncio.create_task(self._labels())
            window = await self._scan()
            self.settings = self.settings.with_vocabulary(await labels_task)
            found = await asyncio.gather(*(self._issue(number) for number in window))
        for read in found:
            if read is not None:
                self.outcome.window.append(read[0].number)
                self.outcome.corrections.append(read[1])
        return self.outcome

    async def _labels(self) -> Any:
        path = quote(self.config.context.labels_file)
        answer, _ = await self._get(f"{self.root}/contents/{path}", {"ref": "HEAD"})
        if not isinstance(answer, dict):
            self.outcome.warnings.append("labels.md not found: no label is a correction")
            return parse_vocabulary("")
        import base64

        return parse_vocabulary(base64.b64decode(answer["content"]).decode("utf-8"))

    async def _scan(self) -> list[int]:
        """Window issues from the newest comments: those with a first analysis, by newest comment."""
        seen: dict[int, bool] = {}  # issue number -> has a first analysis among the scanned comments
        url: str | None = f"{self.root}/issues/comments"
        params: dict[str, str] | None = {"sort": "created", "direction": "desc", "per_page": str(PER_PAGE)}
        limit = self.config.context.max_analyzed
        for _ in range(self.config.context.scan_pages):
            assert url is not None
            comments, url = await self._get(url, params)
            params = None
            for item in comments or []:
                number = int(str(item["issue_url"]).rsplit("/", 1)[1])
                seen.setdefault(number, False)
                comment = event({**item, "event": "commented"})
                assert isinstance(comment, Comment)
                try:
                    # Its issue's number: with a shared account only a marker sealed for this
                    # issue counts (assistant.markers.counted), as in the product's read.
                    analysis = parse_analysis(comment, 0, self.settings.assistant, number=number)
                except MarkerError:
                    analysis = None
                if analysis is not None and analysis.kind == "first":
                    seen[number] = True
            if sum(seen.values()) >= limit or url is None:
                break
        return [number for number, analyzed in seen.items() if analyzed][:limit]

    async def _issue(self, number: int) -> tuple[Issue, IssueCorrection] | None:
        """One window issue: read, then its 👎 and the permissions that decide, then the rules."""
        (answer, _), items = await asyncio.gather(
            self._get(f"{self.root}/issues/{number}"),
            self._pages(
                f"{self.root}/issues/{number}/timeline", {"per_page": str(PER_PAGE)}, MAX_TIMELINE_PAGES
            ),
        )
        events = tuple(e for item in items if (e := event(item)) is not None)
        reason = answer.get("state_reason")
        issue = Issue(
            number=number,
            title=answer["title"],
            body=answer.get("body") or "",
            author=actor(answer.get("user")),
            created_at=_time(answer["created_at"]),
            updated_at=_time(answer["updated_at"]),
            state=str(answer["state"]).upper(),
            state_reason=reason.upper() if reason else None,
            events=events,
        )
        first = first_analysis(issue, self.settings)
        if first is None:
            self.outcome.warnings.append(f"#{number}: no first analysis in the timeline")
            return None
        deciders = duplicate_deciders(issue, first, self.settings)
        await asyncio.gather(*(self._permission(login) for login in deciders))
        reactions: list[Reaction] = []
        rollup = next(
            (item.get("reactions") or {} for item in items if item.get("id") == first.database_id), {}
        )
        if rollup.get("-1", 0):
            url = f"{self.root}/issues/comments/{first.database_id}/reactions"
            found = await self._pages(url, {"content": "-1", "per_page": str(PER_PAGE)}, MAX_REACTION_PAGES)
            reactions = [
                Reaction(actor=actor(reaction.get("user")), at=_time(reaction["created_at"]))
                for reaction in found
            ]
            people = {
                normalize_login(who.login)
                for reaction in reactions
                if (who := reaction.actor) is not None and is_person(who, self.settings.assistant)
            }
            await asyncio.gather(*(self._permission(login) for login in people))
        return issue, correct(issue, first, reactions, self.settings, self.permissions)

    async def _permission(self, login: str) -> None:
        """Ask once per login, however many issues need it."""
        task = self._asked.get(login)
        if task is None:
            task = self._asked[login] = asyncio.create_task(self._ask_permission(login))
        await task

    async def _ask_permission(self, login: str) -> None:
        answer, _ = await self._get(f"{self.root}/collaborators/{quote(login)}/permission")
        level = Permission.NONE if answer is None else permission_level(answer)
        if level is not None:
            self.permissions[login] = level


async def read_rest(base_url: str, token: str, owner: str, name: str, config: Config) -> RestOutcome:
    """Read the corrections of `owner/name` through REST."""
    return await RestReader(base_url, token, owner, name, config).read()
