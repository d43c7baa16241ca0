"""The repository's git side as the server holds it: commits, branches, and the writes on them.

Object ids are SHA-1 as git computes them for blobs (``blob_oid``); commits and initial trees
get stable made-up ids (``made_oid``), since the world has no real history.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from emulator.refusals import MutationError
from emulator.world import WorldCommit


@dataclass(frozen=True)
class Commit:
    """One commit: its tree (path -> text) and where it came from."""

    oid: str
    files: dict[str, str]
    parent: str | None
    message: str
    at: datetime = datetime(2026, 1, 1, tzinfo=UTC)  # committedDate (a world's tree has none of its own)


def made_oid(*parts: str) -> str:
    """A stable 40-hex object id for a commit the world does not name."""
    return hashlib.sha1("\0".join(parts).encode(), usedforsecurity=False).hexdigest()


def blob_oid(text: str) -> str:
    """The object id git gives a file's contents (``sha1("blob <size>\\0" + data)``)."""
    data = text.encode("utf-8")
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


class Git:
    """Branches and commits; refuses what GitHub refuses with MutationError."""

    def __init__(
        self,
        default_branch: str,
        files: Mapping[str, Mapping[str, str]],
        heads: Mapping[str, str],
        history: Mapping[str, Sequence[WorldCommit]] | None = None,
    ) -> None:
        self.default_branch = default_branch
        self.commits: dict[str, Commit] = {}
        self.branches: dict[str, str] = {}
        trees = dict(files)
        trees.setdefault(default_branch, {})
        for branch, tree in trees.items():
            if history and history.get(branch):
                continue  # its commits make it
            oid = heads.get(branch) or made_oid("tree", branch, json.dumps(tree, sort_keys=True))
            self.commits[oid] = Commit(oid, dict(tree), None, "initial")
            self.branches[branch] = oid
        for branch, found in (history or {}).items():
            parent: str | None = None
            for made in found:
                at, tree, message = made.at, made.files, made.message
                oid = made_oid(
                    "commit", parent or "", message, at.isoformat(), json.dumps(tree, sort_keys=True)
                )
                self.commits[oid] = Commit(oid, dict(tree), parent, message, at)
                parent = oid
            if parent is not None:
                self.branches[branch] = parent

    def history(self, oid: str, path: str | None, until: datetime | None) -> Iterator[Commit]:
        """``Commit.history``: the commit and its ancestors, newest first; with `path`, only those
        that changed it (as ``git log -- path``); with `until`, none committed after it."""
        current: str | None = oid
        while current is not None:
            commit = self.commits[current]
            parent = self.commits[commit.parent] if commit.parent is not None else None
            changed = path is None or (commit.files.get(path) != (parent.files.get(path) if parent else None))
            if changed and (until is None or commit.at <= until):
                yield commit
            current = commit.parent

    def files_at(self, ref: str) -> dict[str, str] | None:
        """The tree of a branch (``HEAD`` = default branch, ``refs/heads/x`` = x) or commit oid."""
        if ref == "HEAD":
            ref = self.default_branch
        ref = ref.removeprefix("refs/heads/")
        oid = self.branches.get(ref, ref)
        commit = self.commits.get(oid)
        return None if commit is None else commit.files

    def is_ancestor(self, ancestor: str, oid: str | None) -> bool:
        """Whether ``ancestor`` is ``oid`` or one of its parents' ancestors."""
        while oid is not None:
            if oid == ancestor:
                return True
            oid = self.commits[oid].parent
        return False

    def create_ref(self, name: str, oid: str) -> str:
        """Create ``refs/heads/<branch>`` at a known commit; returns the branch name."""
        if not name.startswith("refs/"):
            raise MutationError(f"Reference name must start with refs/: {name}")
        branch = name.removeprefix("refs/heads/")
        if branch in self.branches:
            raise MutationError(f'A ref named "{name}" already exists in the repository.')
        if oid not in self.commits:
            raise MutationError(f"Object does not exist: {oid}", "NOT_FOUND")
        self.branches[branch] = oid
        return branch

    def update_ref(self, branch: str, oid: str, force: bool) -> None:
        """Point a branch at another commit; without ``force`` only a fast-forward is allowed."""
        head = self.branches.get(branch)
        if head is None:
            raise MutationError(f'A ref named "refs/heads/{branch}" does not exist.', "NOT_FOUND")
        if oid not in self.commits:
            raise MutationError(f"Object does not exist: {oid}", "NOT_FOUND")
        if not force and not self.is_ancestor(head, oid):
            raise MutationError("Update is not a fast forward")
        self.branches[branch] = oid

    def delete_ref(self, branch: str) -> None:
        """Delete a branch; the default branch cannot be deleted."""
        if branch not in self.branches:
            raise MutationError(f'A ref named "refs/heads/{branch}" does not exist.', "NOT_FOUND")
        if branch == self.default_branch:
            raise MutationError("Cannot delete the default branch")
        del self.branches[branch]

    def commit(
        self,
        branch: str,
        expected_head: str,
        message: str,
        additions: list[tuple[str, str]],
        deletions: list[str],
        *,
        at: datetime | None = None,
    ) -> Commit:
        """Commit file changes (additions: path, base64 contents) on an existing branch.

        Raises MutationError (STALE_DATA) when ``expected_head`` is not the branch's head.
        """
        head = self.branches.get(branch)
        if head is None:
            raise MutationError(f'A ref named "refs/heads/{branch}" does not exist.', "NOT_FOUND")
        if expected_head != head:
            raise MutationError(
                f'Expected branch to point to "{expected_head}" but it did not.  Pull and try again.',
                "STALE_DATA",
            )
        files = dict(self.commits[head].files)
        for path in deletions:
            if path not in files:
                raise MutationError(
                    f"A path was requested for deletion which does not exist as of commit oid `{head}`"
                )
            del files[path]
        for path, contents in additions:
            try:
                files[path] = base64.b64decode(contents, validate=True).decode("utf-8")
            except (ValueError, UnicodeDecodeError) as error:
                raise MutationError(f"Invalid base64 contents for {path}") from error
        oid = made_oid("commit", head, message, json.dumps(files, sort_keys=True))
        commit = Commit(oid, files, head, message, at or datetime.now(UTC).replace(microsecond=0))
        self.commits[oid] = commit
        self.branches[branch] = oid
        return commit
