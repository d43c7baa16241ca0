"""The round trips of the correction reader: each sends one request and parses it into models.

`fetch_window_page` is round trip 1 (and later scan pages); `fetch_details` carries everything
asked for afterwards in one request. Which logins REST is asked about after it is
queries.permissions' policy.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

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


def _read_details(answer: Answer, request: DetailsRequest) -> DetailsResult:
    result = DetailsResult()
    data = answer.data
    _check_shape(data, request)
    if request.analysis_ids:
        items = data.get("analyses_0")
        if not isinstance(items, list):
            result.failed.append("reactions")
        else:
            for item in items:
                if isinstance(item, dict) and item:
                    parsed: CommentReactions = parse_answer(CommentReactions, item, "reactions")
                    result.reactions[parsed.id] = parsed
            if len(result.reactions) < len(request.analysis_ids):
                result.failed.append("reactions")
    if request.bodies:
        bodies = data.get("bodies_0")
        for item in bodies if isinstance(bodies, list) else ():
            if (
                isinstance(item, dict)
                and isinstance(item.get("id"), str)
                and isinstance(item.get("body"), str)
            ):
                result.bodies[item["id"]] = item["body"]
        if len(result.bodies) < len(request.bodies):
            result.failed.append("bodies")
    for index in range(len(request.reactions)):
        item = data.get(f"moreReactions_{index}")
        if isinstance(item, dict) and item:
            parsed = parse_answer(CommentReactions, item, "reactions")
            result.reactions[parsed.id] = parsed
        else:
            result.failed.append("reactions")
    repository = data.get("repository")
    if request.needs_repository:
        if not isinstance(repository, dict):
            if request.logins:
                result.failed.append("permissions")
            if request.timelines:
                result.failed.append("timelines")
            if request.paths:
                result.failed.append("learnings")
            return result
        for index, expression in enumerate(request.paths):
            key = f"pathCheck_{index}"
            if key in repository and not answer.errors_at("repository", key):
                result.paths[expression] = repository[key] is not None
        for index, login in enumerate(request.logins):
            key = f"permission_{index}"
            value = repository.get(key)
            if value is None:
                if _forbidden(answer.errors_at("repository", key)):
                    result.permissions_forbidden = True
                continue
            collaborators: CollaboratorsAnswer = parse_answer(CollaboratorsAnswer, value, "permissions")
            edges = [edge for edge in collaborators.edges or () if edge is not None]
            exact = [edge for edge in edges if edge.node.login.casefold() == login.casefold()]
            if exact:
                result.permissions[login] = exact[0].permission
            else:
                result.unlisted.append(login)
        answered = len(result.permissions) + len(result.unlisted)
        if answered < len(request.logins) and not result.permissions_forbidden:
            result.failed.append("permissions")
        for index, (number, _) in enumerate(request.timelines):
            value = repository.get(f"timeline_{index}")
            if not isinstance(value, dict):
                result.failed.append("timelines")
                continue
            continuation: TimelineContinuation = parse_answer(TimelineContinuation, value, "timeline")
            result.timelines[number] = continuation.timeline_items
    result.failed = sorted(set(result.failed))
    return result
