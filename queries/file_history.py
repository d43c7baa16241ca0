"""`corrections backtest`'s one request for a file's history on the base branch: the commits that
changed it, newest first, each with the file's text as that commit left it (queries/FileHistory.graphql)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import Field

from queries.answer import AnswerModel, parse_answer
from queries.client import GitHubClient
from queries.documents import operation
from queries.models import Blob

MAX_VERSIONS = 100  # one page of the history: GitHub's largest


class _Entry(AnswerModel):
    object: Blob | None = None


class _Version(AnswerModel):
    committed_date: datetime = Field(alias="committedDate")
    file: _Entry | None = None


class _PageInfo(AnswerModel):
    has_next_page: bool = Field(alias="hasNextPage")


class _History(AnswerModel):
    page_info: _PageInfo = Field(alias="pageInfo")
    nodes: tuple[_Version | None, ...] = ()


class _Commit(AnswerModel):
    history: _History | None = None


class _Repository(AnswerModel):
    object: _Commit | None = None


class _Data(AnswerModel):
    repository: _Repository | None = None


@dataclass(frozen=True)
class FileVersion:
    """The file as one commit left it: when, and its text (None: deleted, binary or not read whole)."""

    at: datetime
    text: str | None


@dataclass(frozen=True)
class FileHistory:
    """The file's versions, newest first; `complete` when they reach back to its first commit."""

    versions: tuple[FileVersion, ...] = ()
    complete: bool = True


async def fetch_file_history(client: GitHubClient, owner: str, name: str, ref: str, path: str) -> FileHistory:
    """The last MAX_VERSIONS commits of `ref` that changed `path`; an empty history when the ref or
    the repository is not visible. Raises GitHubError when GitHub fails."""
    variables = {"owner": owner, "name": name, "ref": ref, "path": path, "first": MAX_VERSIONS}
    answer = await client.execute(operation("FileHistory"), variables)
    data = parse_answer(_Data, answer.data, "FileHistory")
    if data.repository is None or data.repository.object is None or data.repository.object.history is None:
        return FileHistory(complete=False)
    history = data.repository.object.history
    versions = []
    for node in history.nodes:
        if node is None:
            continue
        blob = node.file.object if node.file is not None else None
        whole = blob is not None and blob.text is not None and not blob.is_truncated
        versions.append(FileVersion(node.committed_date, blob.text if whole and blob else None))
    return FileHistory(tuple(versions), complete=not history.page_info.has_next_page)
