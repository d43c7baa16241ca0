"""Branches, commits and file contents: Ref, Commit, Blob."""

from __future__ import annotations

import hashlib
from typing import Any

from emulator.git import Commit, blob_oid
from emulator.ids import node_id
from emulator.pagination import Connection, paginate
from emulator.resolvers.context import Args, Info
from emulator.resolvers.issues import parse_time
from emulator.resolvers.registry import NODES
from emulator.store import Store

BASE = "https://github.com"
BLOB_TEXT_LIMIT = 512_000  # bytes of Blob.text


class BlobNode:
    """A file's contents; ``text`` is null for binary files (a NUL byte), cut at 512,000 bytes."""

    typename = "Blob"

    def __init__(self, text: str) -> None:
        data = text.encode("utf-8")
        self.oid = blob_oid(text)
        self.abbreviatedOid = self.oid[:7]
        self.id = node_id("Blob", self.oid)
        self.byteSize = len(data)
        self.isBinary = "\0" in text
        # GitHub cuts Blob.text at 512,000 bytes and says so in isTruncated (Blob's reference).
        self.isTruncated = not self.isBinary and len(data) > BLOB_TEXT_LIMIT
        cut = data[:BLOB_TEXT_LIMIT].decode("utf-8", errors="ignore") if self.isTruncated else text
        self.text = None if self.isBinary else cut


class TreeEntryNode:
    """One entry of a tree: a file (blob) or a folder (tree)."""

    typename = "TreeEntry"

    def __init__(self, files: dict[str, str], folder: str, name: str, is_tree: bool) -> None:
        self.name = name
        self.path = f"{folder}/{name}" if folder else name
        self.type = "tree" if is_tree else "blob"
        self.mode = 0o40000 if is_tree else 0o100644
        self.extension = "" if is_tree or "." not in name else "." + name.rsplit(".", 1)[1]
        self.isGenerated = False
        self.object = TreeNode(files, self.path) if is_tree else BlobNode(files[self.path])
        self.oid = self.object.oid


class TreeNode:
    """A folder of a branch's files: ``REF:path/to/folder`` (``REF:`` is the root)."""

    typename = "Tree"

    def __init__(self, files: dict[str, str], folder: str) -> None:
        self._files = files
        self._folder = folder.strip("/")
        prefix = f"{self._folder}/" if self._folder else ""
        listing = sorted(path for path in files if path.startswith(prefix))
        self.oid = hashlib.sha1("\n".join(listing).encode(), usedforsecurity=False).hexdigest()
        self.abbreviatedOid = self.oid[:7]
        self.id = node_id("Tree", self.oid)

    @property
    def entries(self) -> list[TreeEntryNode]:
        """Files and folders directly inside, folders first as git lists them by name."""
        prefix = f"{self._folder}/" if self._folder else ""
        children: dict[str, bool] = {}
        for path in self._files:
            if path.startswith(prefix):
                head, _, rest = path[len(prefix) :].partition("/")
                children[head] = children.get(head, False) or bool(rest)
        return [
            TreeEntryNode(self._files, self._folder, name, is_tree)
            for name, is_tree in sorted(children.items())
        ]


def folder_exists(files: dict[str, str], folder: str) -> bool:
    """Whether any file lies under ``folder`` (git has no empty folders)."""
    prefix = folder.strip("/") + "/" if folder.strip("/") else ""
    return any(path.startswith(prefix) for path in files)


@NODES.register("Commit")
class CommitNode:
    """A commit by oid."""

    typename = "Commit"

    def __init__(self, store: Store, commit: Commit) -> None:
        self.oid = commit.oid
        self.abbreviatedOid = commit.oid[:7]
        self.id = node_id("Commit", commit.oid)
        self.message = commit.message
        self.messageHeadline = commit.message.split("\n", 1)[0]
        self.messageBody = commit.message.split("\n", 1)[1].strip() if "\n" in commit.message else ""
        self.url = f"{BASE}/{store.name_with_owner}/commit/{commit.oid}"
        self.resourcePath = self.url.removeprefix(BASE)
        self.committedViaWeb = True
        self.committedDate = commit.at.strftime("%Y-%m-%dT%H:%M:%SZ")
        self._store = store
        self._commit = commit

    def history(self, info: Info, args: Args) -> Connection[Commit]:
        """The commit and its ancestors, newest first (``path``: those that changed it; ``until``:
        none committed later), paged as GitHub pages them (cursors: commit ids)."""
        until = parse_time(args.get("until"))
        found = list(self._store.git.history(self._commit.oid, args.get("path"), until))
        position = {c.oid: k for k, c in enumerate(found)}
        return paginate(found, args, lambda c: c.oid, position.get, lambda c: CommitNode(self._store, c))

    def file(self, info: Info, args: Args) -> TreeEntryNode | None:
        """The file or folder at ``path`` in this commit's tree; null when there is none."""
        path = str(args.get("path") or "").strip("/")
        files = self._commit.files
        folder, _, name = path.rpartition("/")
        if path in files:
            return TreeEntryNode(files, folder, name, is_tree=False)
        return (
            TreeEntryNode(files, folder, name, is_tree=True) if path and folder_exists(files, path) else None
        )

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> CommitNode | None:
        """A commit the repository holds."""
        commit = store.commits.get(key)
        return cls(store, commit) if commit else None


@NODES.register("Ref")
class RefNode:
    """A branch: ``refs/heads/<name>``."""

    typename = "Ref"

    def __init__(self, store: Store, branch: str) -> None:
        self._store = store
        self.name = branch
        self.prefix = "refs/heads/"
        self.id = node_id("Ref", branch)

    @classmethod
    def find(cls, store: Store, typename: str, key: str) -> RefNode | None:
        """A branch by name or ``refs/heads/name``."""
        return ref_node(store, key)

    def target(self, info: Info, args: Args) -> CommitNode:
        """The commit the branch points to."""
        return CommitNode(self._store, self._store.commits[self._store.branches[self.name]])

    @property
    def repository(self) -> Any:
        """The repository, built by the class the registry knows for it."""
        return NODES.build(self._store, "Repository", self._store.name_with_owner)


def ref_node(store: Store, qualified: str) -> RefNode | None:
    """A branch by name or ``refs/heads/name``; None when it does not exist."""
    branch = qualified.removeprefix("refs/heads/")
    return RefNode(store, branch) if branch in store.branches else None


def object_node(store: Store, expression: str | None, oid: str | None) -> Any:
    """``Repository.object``: ``REF:PATH`` gives a Blob or a Tree (null when missing), an oid a Commit."""
    if oid is not None:
        commit = store.commits.get(oid)
        return CommitNode(store, commit) if commit else None
    if expression is None:
        return None
    ref, sep, path = expression.partition(":")
    if not sep:
        files = store.git.files_at(ref)
        if files is None:
            return None
        branch = store.git.default_branch if ref == "HEAD" else ref.removeprefix("refs/heads/")
        oid = store.branches.get(branch, ref)
        return CommitNode(store, store.commits[oid]) if oid in store.commits else None
    files = store.git.files_at(ref)
    if files is None:
        return None
    if path in files:
        return BlobNode(files[path])
    if folder_exists(files, path):
        return TreeNode(files, path)
    return None
