"""The REST endpoints a REST reader of the same rules needs, paginated with GitHub's ``Link`` headers.

Bots show as ``login[bot]`` with ``type: "Bot"``; deleted accounts as GitHub's ``ghost`` user.
"""

from __future__ import annotations

import base64
import zlib
from typing import Any

from aiohttp import web
from yarl import URL

from emulator.access import LIST_NEEDS_PUSH, PERMISSION_NEEDS_PUSH, WORKFLOW_ACCOUNT
from emulator.actions_settings import workflow_settings
from emulator.git import blob_oid
from emulator.ids import EVENT_TYPENAMES, node_id
from emulator.store import Store
from emulator.world import CommentItem, Issue, Reaction, iso

API = "https://api.github.com"
LIST_DOCUMENTATION = "https://docs.github.com/rest/collaborators/collaborators#list-repository-collaborators"
REST_CONTENT = {
    "THUMBS_UP": "+1",
    "THUMBS_DOWN": "-1",
    "LAUGH": "laugh",
    "HOORAY": "hooray",
    "CONFUSED": "confused",
    "HEART": "heart",
    "ROCKET": "rocket",
    "EYES": "eyes",
}
FROM_REST = {value: key for key, value in REST_CONTENT.items()}
PERMISSION = {"ADMIN": "admin", "MAINTAIN": "write", "WRITE": "write", "TRIAGE": "read", "READ": "read"}
EVENT_NAMES = {"labeled", "unlabeled", "closed", "reopened", "marked_as_duplicate", "unmarked_as_duplicate"}
GHOST = {
    "login": "ghost",
    "id": 10137,
    "node_id": "MDQ6VXNlcjEwMTM3",
    "type": "User",
    "site_admin": False,
    "url": f"{API}/users/ghost",
    "html_url": "https://github.com/ghost",
}


def not_found(documentation: str = "https://docs.github.com/rest") -> web.Response:
    """GitHub's 404."""
    return web.json_response(
        {"message": "Not Found", "documentation_url": documentation, "status": "404"}, status=404
    )


def _user_id(login: str) -> int:
    return zlib.crc32(login.lower().encode()) % 90_000_000 + 1_000_000


def user_json(store: Store, login: str | None) -> dict[str, Any]:
    """A REST user object; bots with ``[bot]``, deleted accounts as ``ghost``."""
    if login is None:
        return dict(GHOST)
    kind = store.actor_type(login)
    shown = login.removesuffix("[bot]") + "[bot]" if kind == "Bot" else login
    return {
        "login": shown,
        "id": _user_id(shown),
        "node_id": node_id(kind, login.removesuffix("[bot]") if kind == "Bot" else login),
        "type": kind,
        "site_admin": False,
        "url": f"{API}/users/{shown}",
        "html_url": f"https://github.com/{shown}",
    }


def request_token(request: web.Request) -> str | None:
    """The token of an ``Authorization: bearer|token …`` header."""
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() in ("bearer", "token") and value.strip() else None


def with_role(user: dict[str, Any], role: str) -> dict[str, Any]:
    """A REST user with the ``permissions`` hash of a role, as the collaborator endpoints send it."""
    user["permissions"] = {
        "admin": role == "ADMIN",
        "maintain": role in ("ADMIN", "MAINTAIN"),
        "push": role in ("ADMIN", "MAINTAIN", "WRITE"),
        "triage": role != "READ",
        "pull": True,
    }
    return user


def _repo_url(store: Store) -> str:
    return f"{API}/repos/{store.name_with_owner}"


def reactions_summary(store: Store, url: str, reactions: tuple[Reaction, ...]) -> dict[str, Any]:
    """The ``reactions`` rollup of a comment or issue."""
    out: dict[str, Any] = {"url": url + "/reactions", "total_count": len(reactions)}
    for content, name in REST_CONTENT.items():
        out[name] = sum(1 for r in reactions if r.content == content)
    return out


def comment_json(store: Store, number: int, item: CommentItem) -> dict[str, Any]:
    """A REST issue comment."""
    url = f"{_repo_url(store)}/issues/comments/{item.id}"
    return {
        "id": item.id,
        "node_id": node_id("IssueComment", str(item.id)),
        "url": url,
        "html_url": f"https://github.com/{store.name_with_owner}/issues/{number}#issuecomment-{item.id}",
        "issue_url": f"{_repo_url(store)}/issues/{number}",
        "user": user_json(store, item.author),
        "body": item.body,
        "created_at": iso(item.at),
        "updated_at": iso(item.updated_at or item.at),
        "author_association": store.association(item.author),
        "reactions": reactions_summary(store, url, item.reactions),
    }


def issue_json(store: Store, number: int) -> dict[str, Any]:
    """A REST issue (pull requests carry a ``pull_request`` key)."""
    issue: Issue = store.items[number]
    derived = store.derived(number)
    url = f"{_repo_url(store)}/issues/{number}"
    reason = derived.state_reason.lower() if derived.state_reason else None
    out: dict[str, Any] = {
        "id": number,
        "node_id": node_id("PullRequest" if store.is_pull(number) else "Issue", str(number)),
        "url": url,
        "number": number,
        "html_url": f"https://github.com/{store.name_with_owner}/issues/{number}",
        "comments_url": url + "/comments",
        "events_url": url + "/events",
        "timeline_url": url + "/timeline",
        "title": issue.title,
        "body": issue.body,
        "user": user_json(store, issue.author),
        "labels": [label_json(store, name) for name in derived.labels],
        "state": "closed" if derived.closed else "open",
        "state_reason": reason,
        "locked": issue.locked,
        "comments": derived.comment_count,
        "created_at": iso(issue.created_at),
        "updated_at": iso(derived.updated_at),
        "closed_at": iso(derived.closed_at) if derived.closed_at else None,
        "author_association": store.association(issue.author),
        "reactions": reactions_summary(store, url, issue.reactions),
    }
    if store.is_pull(number):
        out["pull_request"] = {
            "url": f"{_repo_url(store)}/pulls/{number}",
            "html_url": f"https://github.com/{store.name_with_owner}/pull/{number}",
        }
    return out


def label_json(store: Store, name: str) -> dict[str, Any]:
    """A REST label."""
    info = store.label(name)
    return {
        "name": name,
        "color": info.color,
        "description": info.description,
        "default": False,
        "url": f"{_repo_url(store)}/labels/{name}",
    }


def event_json(store: Store, number: int, index: int, item: Any, *, timeline: bool) -> dict[str, Any]:
    """A REST timeline or issue event."""
    if isinstance(item, CommentItem):
        out = comment_json(store, number, item)
        out["event"] = "commented"
        out["actor"] = out["user"]
        return out
    event_id = 10_000_000 + number * 1000 + index
    out = {
        "id": event_id,
        "node_id": node_id(EVENT_TYPENAMES[item.type], f"{number}:{index}"),
        "url": f"{_repo_url(store)}/issues/events/{event_id}",
        "actor": user_json(store, item.actor),
        "event": item.type,
        "commit_id": None,
        "commit_url": None,
        "created_at": iso(item.at),
    }
    if item.type in ("labeled", "unlabeled"):
        out["label"] = {"name": item.label, "color": store.label(item.label).color}
    if item.type == "closed":
        out["state_reason"] = item.state_reason.lower()
    if item.type == "reopened":
        out["state_reason"] = "reopened"
    if not timeline:
        out["issue"] = {"number": number}
    return out


def page_of(request: web.Request, rows: list[Any]) -> tuple[list[Any], dict[str, str]]:
    """The ``page``/``per_page`` slice of rows and the ``Link`` header GitHub sends with it."""
    try:
        per_page = min(100, max(1, int(request.query.get("per_page", "30"))))
        page = max(1, int(request.query.get("page", "1")))
    except ValueError:
        per_page, page = 30, 1
    last = max(1, -(-len(rows) // per_page))
    chosen = rows[(page - 1) * per_page : page * per_page]
    links = []
    url = request.url

    def at(number: int) -> str:
        return str(
            URL.build(
                scheme=url.scheme,
                host=url.host or "",
                port=url.port,
                path=url.path,
                query={**url.query, "per_page": str(per_page), "page": str(number)},
            )
        )

    if page > 1:
        links.append(f'<{at(min(page - 1, last))}>; rel="prev"')
    if page < last:
        links.append(f'<{at(page + 1)}>; rel="next"')
        links.append(f'<{at(last)}>; rel="last"')
    if page > 1:
        links.append(f'<{at(1)}>; rel="first"')
    return chosen, ({"Link": ", ".join(links)} if links else {})


class RestApi:
    """aiohttp handlers over one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def routes(self) -> list[web.RouteDef]:
        """The REST routes."""
        base = "/repos/{owner}/{repo}"
        return [
            web.get(base + "/issues/comments", self.repo_comments),
            web.get(base + "/issues/comments/{id:\\d+}", self.one_comment),
            web.get(base + "/issues/comments/{id:\\d+}/reactions", self.comment_reactions),
            web.get(base + "/issues/{number:\\d+}", self.issue),
            web.get(base + "/issues/{number:\\d+}/comments", self.issue_comments),
            web.get(base + "/issues/{number:\\d+}/timeline", self.timeline),
            web.get(base + "/issues/{number:\\d+}/events", self.events),
            web.get(base + "/collaborators", self.collaborators),
            web.get(base + "/collaborators/{user}/permission", self.permission),
            web.get(base + "/contents/{path:.+}", self.contents),
            web.get(base + "/actions/permissions/workflow", self.workflow_permissions),
        ]

    def _repo_ok(self, request: web.Request) -> bool:
        return self.store.is_repo(request.match_info["owner"], request.match_info["repo"])

    def _number(self, request: web.Request) -> int | None:
        number = int(request.match_info["number"])
        return number if number in self.store.items else None

    async def repo_comments(self, request: web.Request) -> web.Response:
        """Every comment of the repository; ``sort``=created|updated, ``direction``, ``since``."""
        if not self._repo_ok(request):
            return not_found()
        store = self.store
        rows: list[tuple[int, CommentItem]] = []
        for number, index in store.comments_by_created():
            item = store.items[number].timeline[index]
            assert isinstance(item, CommentItem)
            rows.append((number, item))
        sort = request.query.get("sort")
        if sort == "updated":
            rows.sort(key=lambda row: (row[1].updated_at or row[1].at, row[1].id))
        if sort and request.query.get("direction", "desc") == "desc":
            rows.reverse()
        since = request.query.get("since")
        if since:
            rows = [row for row in rows if iso(row[1].updated_at or row[1].at) >= since]
        chosen, headers = page_of(request, rows)
        return web.json_response([comment_json(store, n, item) for n, item in chosen], headers=headers)

    async def one_comment(self, request: web.Request) -> web.Response:
        """One comment by id."""
        found = self.store.comment(int(request.match_info["id"]))
        if not self._repo_ok(request) or found is None:
            return not_found()
        return web.json_response(comment_json(self.store, found[0], found[1]))

    async def comment_reactions(self, request: web.Request) -> web.Response:
        """Reactions of a comment, filtered by ``content`` (``-1``, ``+1``, ...)."""
        found = self.store.comment(int(request.match_info["id"]))
        if not self._repo_ok(request) or found is None:
            return not_found()
        content = request.query.get("content")
        reactions = [
            (i, r)
            for i, r in enumerate(found[1].reactions)
            if not content or REST_CONTENT[r.content] == content
        ]
        chosen, headers = page_of(request, reactions)
        body = [
            {
                "id": found[1].id * 100 + i,
                "node_id": node_id("Reaction", f"c{found[1].id}:{i}"),
                # A deleted reactor is `null` here (REST's reaction schema: nullable-simple-user),
                # not the ghost user that comments and events show.
                "user": None if r.user is None else user_json(self.store, r.user),
                "content": REST_CONTENT[r.content],
                "created_at": iso(r.at),
            }
            for i, r in chosen
        ]
        return web.json_response(body, headers=headers)

    async def issue(self, request: web.Request) -> web.Response:
        """One issue or pull request."""
        number = self._number(request)
        if not self._repo_ok(request) or number is None:
            return not_found()
        return web.json_response(issue_json(self.store, number))

    async def issue_comments(self, request: web.Request) -> web.Response:
        """An issue's comments, oldest first."""
        number = self._number(request)
        if not self._repo_ok(request) or number is None:
            return not_found()
        items = [i for i in self.store.items[number].timeline if isinstance(i, CommentItem)]
        chosen, headers = page_of(request, items)
        return web.json_response([comment_json(self.store, number, i) for i in chosen], headers=headers)

    async def timeline(self, request: web.Request) -> web.Response:
        """An issue's timeline: commented and the label/close/duplicate events, oldest first."""
        return await self._events(request, timeline=True)

    async def events(self, request: web.Request) -> web.Response:
        """An issue's events (no comments), oldest first."""
        return await self._events(request, timeline=False)

    async def _events(self, request: web.Request, *, timeline: bool) -> web.Response:
        number = self._number(request)
        if not self._repo_ok(request) or number is None:
            return not_found()
        rows = [
            (i, item)
            for i, item in enumerate(self.store.items[number].timeline)
            if timeline or not isinstance(item, CommentItem)
        ]
        chosen, headers = page_of(request, rows)
        body = [event_json(self.store, number, i, item, timeline=timeline) for i, item in chosen]
        return web.json_response(body, headers=headers)

    async def permission(self, request: web.Request) -> web.Response:
        """A user's permission, every source of access counted; 404 for a login that does not exist."""
        login = request.match_info["user"]
        if not self._repo_ok(request) or not self.store.account_exists(login):
            return not_found(
                "https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user"
            )
        if self.store.file.rest_permission == "no_push":
            return web.json_response(
                {
                    "message": PERMISSION_NEEDS_PUSH,
                    "documentation_url": "https://docs.github.com/rest/collaborators/collaborators"
                    "#get-repository-permissions-for-a-user",
                },
                status=403,
            )
        role = self.store.access.effective(login) or "READ"
        name = self.store.access.role_name(login, role)
        user = with_role(user_json(self.store, login), role) | {"role_name": name}
        return web.json_response({"permission": PERMISSION[role], "role_name": name, "user": user})

    async def collaborators(self, request: web.Request) -> web.Response:
        """Everyone with access (``affiliation`` all, direct or outside), each with ``permissions`` and
        ``role_name``, paged; 403 unless the token's login may push (GitHub's REST reference). A
        workflow's token (the Bot `github-actions`) gets 200 with the directly added collaborators
        only, whatever the affiliation: no team grant (actions/runner#2519, pullpreview/action#96,
        zephyrproject-rtos/zephyr#90352)."""
        if not self._repo_ok(request):
            return not_found()
        store = self.store
        login = store.viewer_login(request_token(request) or "")
        workflow = login.lower().removesuffix("[bot]") == WORKFLOW_ACCOUNT
        if store.file.rest_permission == "no_push" or not (workflow or store.access.can_push(login)):
            return web.json_response(
                {"message": LIST_NEEDS_PUSH, "documentation_url": LIST_DOCUMENTATION}, status=403
            )
        affiliation = request.query.get("affiliation", "all")
        if affiliation not in ("all", "direct", "outside"):
            return web.json_response(
                {"message": "Validation Failed", "documentation_url": LIST_DOCUMENTATION, "status": "422"},
                status=422,
            )
        chosen, headers = page_of(request, store.access.everyone("direct" if workflow else affiliation))
        body = [
            with_role(user_json(store, name), role) | {"role_name": store.access.role_name(name, role)}
            for name, role in chosen
        ]
        return web.json_response(body, headers=headers)

    async def workflow_permissions(self, request: web.Request) -> web.Response:
        """The repository's GITHUB_TOKEN settings (emulator/actions_settings.py)."""
        login = self.store.viewer_login(request_token(request) or "")
        return workflow_settings(self.store, login, repo_ok=self._repo_ok(request))

    async def contents(self, request: web.Request) -> web.Response:
        """A file's contents at ``ref`` (default branch when absent), base64 as GitHub sends it."""
        if not self._repo_ok(request):
            return not_found()
        path = request.match_info["path"]
        files = self.store.git.files_at(request.query.get("ref", "HEAD"))
        if files is None or path not in files:
            return not_found("https://docs.github.com/rest/repos/contents#get-repository-content")
        data = files[path].encode("utf-8")
        encoded = base64.b64encode(data).decode()
        content = "\n".join(encoded[i : i + 60] for i in range(0, len(encoded), 60)) + "\n"
        sha = blob_oid(files[path])
        return web.json_response(
            {
                "type": "file",
                "encoding": "base64",
                "size": len(data),
                "name": path.rsplit("/", 1)[-1],
                "path": path,
                "content": content,
                "sha": sha,
                "url": f"{_repo_url(self.store)}/contents/{path}",
            }
        )
