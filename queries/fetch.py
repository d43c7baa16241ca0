"""The round trips of the correction reader: each sends one request and parses it into models.

`fetch_window_page` is round trip 1 (and later scan pages); `fetch_details` carries everything
asked for afterwards in one request. Which logins REST is asked about after it is
queries.permissions' policy.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from assistant.identity import same_login
from queries.answer import parse_answer
from queries.classify import missing_repository
from queries.client import Answer, GitHubClient
from queries.documents import expand, operation
from queries.errors import BadResponse
from queries.models import (
    AnalysedText,
    BaseFilesData,
    Blob,
    CollaboratorsAnswer,
    CommentReactions,
    IssueNode,
    PageInfo,
    TimelineContinuation,
    TimelinePage,
    WindowData,
)
from queries.page_sizes import FULL_PAGE
from queries.requests import DetailsRequest, FileRequest, WindowAsk
from queries.window_request import send_window


@dataclass(frozen=True)
class WindowPage:
    """One page of the scan, with the files when they were asked for."""

    issues: tuple[IssueNode, ...]
    page_info: PageInfo
    labels_file: Blob | None = None
    learnings_file: Blob | None = None
    config_file: Blob | None = None
    # The issue being analysed, when it was asked for and GitHub has it.
    analysed: AnalysedText | None = None
    # Parts GitHub answered with an error beside the data ("labels", "learnings", "config", "issues").
    failed: tuple[str, ...] = ()
    # Files of `failed` that GitHub refused (FORBIDDEN): the token lacks `contents: read`.
    refused: tuple[str, ...] = ()
    # With the files: whether GitHub refused to list collaborators (None: not asked, or not told).
    collaborators_refused: bool | None = None
    # With the files: the login the token acts as (`viewer`; an app's with `[bot]`).
    viewer: str | None = None


async def fetch_window_page(
    client: GitHubClient, ask: WindowAsk, *, sent: Awaitable[Answer] | None = None
) -> WindowPage:
    """One page of issues by newest activity, each with the first page of its timeline.

    `sent`: the answer of this very ask, already on its way (queries.window_request.EarlyRequest).
    """
    answer = await (sent if sent is not None else send_window(client, ask))
    owner, name = ask.owner, ask.name
    data: WindowData = parse_answer(WindowData, answer.data, "CorrectionWindow")
    if data.repository is None:
        raise missing_repository(owner, name, answer.errors)
    page = data.repository.issues
    failed, refused = _file_errors(
        answer, {"labels": "labelsFile", "learnings": "learningsFile", "config": "configFile"}
    )
    # Only a nulled issue is a missing one: errors deeper down (GitHub's databaseId overflowing
    # Int, say) leave the issue itself readable.
    if any(issue is None for issue in page.nodes):
        failed.append("issues")
    listing = None  # whether GitHub refused to list collaborators (asked with the files)
    if ask.files is not None:
        if _forbidden(answer.errors_at("repository", "collaboratorsProbe")):
            listing = True
        elif isinstance(answer.data["repository"].get("collaboratorsProbe"), dict):
            listing = False
    return WindowPage(
        issues=tuple(issue for issue in page.nodes if issue is not None),
        collaborators_refused=listing,
        page_info=page.page_info,
        labels_file=data.repository.labels_file,
        learnings_file=data.repository.learnings_file,
        analysed=data.repository.analysed,
        config_file=data.repository.config_file,
        failed=tuple(failed),
        refused=refused,
        viewer=data.viewer.login if data.viewer is not None else None,
    )


def _file_errors(answer: Answer, aliases: dict[str, str]) -> tuple[list[str], tuple[str, ...]]:
    """The files (part -> alias under `repository`) GitHub answered with an error, and those of
    them it refused (FORBIDDEN: the token lacks `contents: read`)."""
    failed = [part for part, alias in aliases.items() if answer.errors_at("repository", alias)]
    refused = tuple(part for part in failed if _forbidden(answer.errors_at("repository", aliases[part])))
    return failed, refused


@dataclass(frozen=True)
class BaseFiles:
    """labels.md and learnings.jsonl read alone; `failed` as in WindowPage."""

    labels_file: Blob | None
    learnings_file: Blob | None
    failed: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()


async def fetch_base_files(client: GitHubClient, owner: str, name: str, files: FileRequest) -> BaseFiles:
    """labels.md and learnings.jsonl at the base ref, alone.

    Round trip 2 of the action when the base branch's configuration names other paths.
    """
    variables = {
        "owner": owner,
        "name": name,
        "labelsExpression": f"{files.ref}:{files.labels_path}",
        "withLearnings": files.learnings_path is not None,
        "learningsExpression": f"{files.ref}:{files.learnings_path}" if files.learnings_path else "",
    }
    answer = await client.execute(operation("BaseFiles"), variables)
    data: BaseFilesData = parse_answer(BaseFilesData, answer.data, "BaseFiles")
    if data.repository is None:
        raise missing_repository(owner, name, answer.errors)
    failed, refused = _file_errors(answer, {"labels": "labelsFile", "learnings": "learningsFile"})
    return BaseFiles(
        labels_file=data.repository.labels_file,
        learnings_file=data.repository.learnings_file,
        failed=tuple(failed),
        refused=refused,
    )


@dataclass
class DetailsResult:
    """What came back; a part that failed is listed in `failed` with a fixed reason."""

    reactions: dict[str, CommentReactions] = field(default_factory=dict)
    bodies: dict[str, str] = field(default_factory=dict)  # issue node id -> body
    permissions: dict[str, str] = field(default_factory=dict)  # login as asked -> permission level
    # Logins GraphQL answered for without listing them: not proof of READ (nested teams and
    # other grants are not listed); ask REST before calling them READ.
    unlisted: list[str] = field(default_factory=list)
    permissions_forbidden: bool = False
    timelines: dict[int, TimelinePage] = field(default_factory=dict)
    paths: dict[str, bool] = field(default_factory=dict)  # expression -> exists
    failed: list[str] = field(default_factory=list)


def _forbidden(errors: list[dict[str, Any]]) -> bool:
    return any(str(error.get("type", "")) == "FORBIDDEN" for error in errors)


async def fetch_details(
    client: GitHubClient,
    owner: str,
    name: str,
    request: DetailsRequest,
    *,
    timeline_size: int = FULL_PAGE,
    shrinkable: bool = False,
) -> DetailsResult:
    """One request for reactions, permissions and later timeline pages, as the round needs.

    Later timeline pages hold `timeline_size` items; `shrinkable` as for `fetch_window_page`.
    """
    counts = {
        "analyses": 1 if request.analysis_ids else 0,
        "bodies": 1 if request.bodies else 0,
        "permission": len(request.logins),
        "timeline": len(request.timelines),
        "moreReactions": len(request.reactions),
        "pathCheck": len(request.paths),
    }
    variables: dict[str, Any] = {"owner": owner, "name": name}
    if request.analysis_ids:
        variables["analysisIds_0"] = list(request.analysis_ids)
    if request.bodies:
        variables["issueIds_0"] = list(request.bodies)
    for index, login in enumerate(request.logins):
        variables[f"login_{index}"] = login
    for index, (number, cursor) in enumerate(request.timelines):
        variables[f"number_{index}"] = number
        variables[f"after_{index}"] = cursor
        variables[f"timelinePageSize_{index}"] = timeline_size
    for index, (comment_id, cursor) in enumerate(request.reactions):
        variables[f"commentId_{index}"] = comment_id
        variables[f"reactionsAfter_{index}"] = cursor
    for index, expression in enumerate(request.paths):
        variables[f"pathExpression_{index}"] = expression
    if not request.needs_repository:
        # Without them the repository selection would be empty: drop it with its variables.
        variables.pop("owner")
        variables.pop("name")
    answer = await client.execute(
        expand(operation("CorrectionDetails"), counts), variables, shrinkable=shrinkable
    )
    return _read_details(answer, request)


def _check_shape(data: dict[str, Any], request: DetailsRequest) -> None:
    """Raise BadResponse when a part is there but is not what was asked (null is a missing part)."""
    expected: dict[str, type] = {f"moreReactions_{i}": dict for i in range(len(request.reactions))}
    if request.analysis_ids:
        expected["analyses_0"] = list
    if request.bodies:
        expected["bodies_0"] = list
    if request.logins or request.timelines:
        expected["repository"] = dict
    for key, kind in expected.items():
        value = data.get(key)
        if value is not None and not isinstance(value, kind):
            raise BadResponse(f"CorrectionDetails: `{key}` does not match the query")


# Each part of a CorrectionDetails answer is read by one function below, which returns its slice
# of the result and whether the part failed (it is then named in DetailsResult.failed).


def _analysis_reactions(
    data: dict[str, Any], request: DetailsRequest
) -> tuple[dict[str, CommentReactions], bool]:
    """The analyses' first reaction pages (`analyses_0`), by comment id; failed when one is missing."""
    if not request.analysis_ids:
        return {}, False
    items = data.get("analyses_0")
    if not isinstance(items, list):
        return {}, True
    found: dict[str, CommentReactions] = {}
    for item in items:
        if isinstance(item, dict) and item:
            parsed: CommentReactions = parse_answer(CommentReactions, item, "reactions")
            found[parsed.id] = parsed
    return found, len(found) < len(request.analysis_ids)


def _bodies(data: dict[str, Any], request: DetailsRequest) -> tuple[dict[str, str], bool]:
    """The issue bodies asked for (`bodies_0`), by node id; failed when one is missing."""
    if not request.bodies:
        return {}, False
    items = data.get("bodies_0")
    found = {
        item["id"]: item["body"]
        for item in (items if isinstance(items, list) else ())
        if isinstance(item, dict) and isinstance(item.get("id"), str) and isinstance(item.get("body"), str)
    }
    return found, len(found) < len(request.bodies)


def _more_reactions(
    data: dict[str, Any], request: DetailsRequest
) -> tuple[dict[str, CommentReactions], bool]:
    """The later reaction pages (`moreReactions_i`), by comment id; failed when one is missing."""
    found: dict[str, CommentReactions] = {}
    failed = False
    for index in range(len(request.reactions)):
        item = data.get(f"moreReactions_{index}")
        if isinstance(item, dict) and item:
            parsed: CommentReactions = parse_answer(CommentReactions, item, "reactions")
            found[parsed.id] = parsed
        else:
            failed = True
    return found, failed


def _path_checks(answer: Answer, repository: dict[str, Any], request: DetailsRequest) -> dict[str, bool]:
    """Whether each path expression exists (`pathCheck_i`); one GitHub erred on is left unknown."""
    found: dict[str, bool] = {}
    for index, expression in enumerate(request.paths):
        key = f"pathCheck_{index}"
        if key in repository and not answer.errors_at("repository", key):
            found[expression] = repository[key] is not None
    return found


@dataclass(frozen=True)
class _Permissions:
    levels: dict[str, str]  # login as asked -> permission level
    unlisted: list[str]
    forbidden: bool


def _permissions(
    answer: Answer, repository: dict[str, Any], request: DetailsRequest
) -> tuple[_Permissions, bool]:
    """Each login's permission (`permission_i`): listed with its level, answered but not listed, or
    refused (FORBIDDEN); failed when one is missing and none was refused."""
    levels: dict[str, str] = {}
    unlisted: list[str] = []
    forbidden = False
    for index, login in enumerate(request.logins):
        key = f"permission_{index}"
        value = repository.get(key)
        if value is None:
            forbidden = forbidden or _forbidden(answer.errors_at("repository", key))
            continue
        collaborators: CollaboratorsAnswer = parse_answer(CollaboratorsAnswer, value, "permissions")
        edges = [edge for edge in collaborators.edges or () if edge is not None]
        exact = [edge for edge in edges if same_login(edge.node.login, login)]
        if exact:
            levels[login] = exact[0].permission
        else:
            unlisted.append(login)
    failed = len(levels) + len(unlisted) < len(request.logins) and not forbidden
    return _Permissions(levels, unlisted, forbidden), failed


def _timelines(repository: dict[str, Any], request: DetailsRequest) -> tuple[dict[int, TimelinePage], bool]:
    """The later timeline pages (`timeline_i`), by issue number; failed when one is missing."""
    found: dict[int, TimelinePage] = {}
    failed = False
    for index, (number, _) in enumerate(request.timelines):
        value = repository.get(f"timeline_{index}")
        if not isinstance(value, dict):
            failed = True
            continue
        continuation: TimelineContinuation = parse_answer(TimelineContinuation, value, "timeline")
        found[number] = continuation.timeline_items
    return found, failed


def _read_details(answer: Answer, request: DetailsRequest) -> DetailsResult:
    """The answer's parts, each read by its function, and the names of those that failed."""
    data = answer.data
    _check_shape(data, request)
    reactions, reactions_failed = _analysis_reactions(data, request)
    bodies, bodies_failed = _bodies(data, request)
    more, more_failed = _more_reactions(data, request)
    result = DetailsResult(reactions={**reactions, **more}, bodies=bodies)
    failed = {"reactions": reactions_failed or more_failed, "bodies": bodies_failed}
    repository = data.get("repository")
    if request.needs_repository and not isinstance(repository, dict):
        # The repository's parts are all missing with it.
        failed |= {"permissions": bool(request.logins), "timelines": bool(request.timelines)}
        failed["learnings"] = bool(request.paths)
    elif request.needs_repository and isinstance(repository, dict):
        result.paths = _path_checks(answer, repository, request)
        permissions, failed["permissions"] = _permissions(answer, repository, request)
        result.permissions, result.unlisted = permissions.levels, permissions.unlisted
        result.permissions_forbidden = permissions.forbidden
        result.timelines, failed["timelines"] = _timelines(repository, request)
    result.failed = sorted(name for name, yes in failed.items() if yes)
    return result
