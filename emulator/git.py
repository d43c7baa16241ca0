"""The repository's git side as the server holds it: commits, branches, and the writes on them.

Object ids are SHA-1 as git computes them for blobs (``blob_oid``); commits and initial trees
get stable made-up ids (``made_oid``), since the world has no real history.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

from emulator.refusals import MutationError


@dataclass(frozen=True)
class Commit:
    """One commit: its tree (path -> text) and where it came from."""

    oid: str
    files: dict[str, str]
    parent: str | None
    message: str


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
        self, default_branch: str, files: Mapping[str, Mapping[str, str]], heads: Mapping[str, str]
    ) -> None:
        self.default_branch = default_branch
        self.commits: dict[str, Commit] = {}
        self.branches: dict[str, str] = {}
        trees = dict(files)
        trees.setdefault(default_branch, {})
        for branch, tree in trees.items():
            oid = heads.get(branch) or made_oid("tree", branch, json.dumps(tree, sort_keys=True))
            self.commits[oid] = Commit(oid, dict(tree), None, "initial")
            self.branches[branch] = oid

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
        commit = Commit(oid, files, head, message)
        self.commits[oid] = commit
        self.branches[branch] = oid
        return commit
