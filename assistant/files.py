"""The one way a file is written: all at once, so a failure leaves the old file as it was.

A folder the program fills (`--out`) is written through `Folder`, which never follows a symbolic
link below it: a checkout is a stranger's, and may commit links where the files go.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path


def write_atomic(path: Path, text: str, *, durable: bool = False) -> None:
    """Replace `path` with `text` in one step; a failure leaves the old file (or none) as it was.

    The text goes to a temporary file in the same folder (created when missing), is flushed to
    disk when `durable` (a maintainer's learnings; not the context files each run rewrites), then
    renamed over the file; an existing file's permissions are kept, a new one is 0644.
    """
    import tempfile  # here, not at start: `--help` writes nothing (tempfile imports random)

    directory = path.parent if str(path.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class UnsafePath(OSError):
    """A path of a folder the program writes or reads that is a symbolic link (or not a folder) on
    the way. Its message is one line naming the path; nothing was written or read through it.
    """


# A folder on the way is opened as a folder and never through a symbolic link (O_NOFOLLOW: the
# open fails on a link instead of following it), so a link committed into a checkout cannot send a
# write or a removal anywhere else.
_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _is_link(name: str, parent: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _open_child(parent: int, name: str, shown: str, *, create: bool) -> int:
    """The folder `name` of the folder `parent` opened without following a link; made when missing."""
    try:
        return os.open(name, _FOLDER_FLAGS, dir_fd=parent)
    except FileNotFoundError:
        if not create:
            raise
    except OSError as error:
        if _is_link(name, parent):
            raise UnsafePath(f"{shown}: a symbolic link, never followed") from error
        if error.errno == errno.ENOTDIR:
            raise UnsafePath(f"{shown}: not a folder") from error
        raise
    with contextlib.suppress(FileExistsError):  # made meanwhile: opened below like any other
        os.mkdir(name, 0o777, dir_fd=parent)
    return _open_child(parent, name, shown, create=False)


def _walk(start: int, base: Path, parts: list[str], *, create: bool) -> int:
    """The folder `parts` below the descriptor `start` (which it takes over), one part at a time,
    each opened without following a link; `base` names them in errors."""
    current = start
    try:
        for index, part in enumerate(parts):
            child = _open_child(current, part, str(base.joinpath(*parts[: index + 1])), create=create)
            os.close(current)
            current = child
    except BaseException:
        os.close(current)
        raise
    return current


def _parts(name: str) -> list[str]:
    """The parts of a relative `/`-separated name; ValueError for anything that could leave the folder."""
    parts = name.split("/")
    if not name or "\\" in name or "\0" in name or any(part in {"", ".", ".."} for part in parts):
        raise ValueError(f"not a plain relative name: {name!r}")
    return parts


class Folder:
    """A folder written and cleaned through its descriptor: no symbolic link below it is followed.

    `Folder.open(path)` makes the folder when missing. A relative `path` is walked part by part
    from the current folder (a checkout can commit `corrections-context` as a link); an absolute
    one is the user's: only its last part must not be a link. Names inside are `/`-separated and
    relative; each folder on the way is opened with O_NOFOLLOW, and files are replaced by rename
    (a link standing where a file goes is replaced, never written through).
    """

    def __init__(self, path: Path, descriptor: int) -> None:
        self._path = path
        self._fd = descriptor

    @classmethod
    def open(cls, path: Path, *, create: bool = True) -> Folder:
        """Open (and, with `create`, make) the folder `path`; UnsafePath when a part that must not be
        a link is one, FileNotFoundError when it is missing and not to be made."""
        if path.is_absolute():
            if create:
                path.parent.mkdir(parents=True, exist_ok=True)
            start = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            base, parts = path.parent, [path.name] if path.name else []
        else:
            start = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            base, parts = Path(), list(path.parts)
        return cls(path, _walk(start, base, parts, create=create))

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, *_: object) -> None:
        os.close(self._fd)

    def _parent(self, name: str, *, create: bool) -> tuple[int, str]:
        """The descriptor of the folder holding `name` (the caller closes it) and the file's own name."""
        parts = _parts(name)
        return _walk(os.dup(self._fd), self._path, parts[:-1], create=create), parts[-1]

    def make_folders(self, names: Iterable[str]) -> None:
        """Make (or check) the folders that hold `names`: UnsafePath before anything is written."""
        for name in names:
            parent, _leaf = self._parent(name, create=True)
            os.close(parent)

    def write(self, name: str, text: str) -> None:
        """Replace the file `name` with `text` in one step (as write_atomic does), inside the folder only."""
        import secrets  # here, not at start: `--help` writes nothing

        parent, leaf = self._parent(name, create=True)
        try:
            try:
                mode = os.stat(leaf, dir_fd=parent, follow_symlinks=False).st_mode
                mode = stat.S_IMODE(mode) if stat.S_ISREG(mode) else 0o644
            except FileNotFoundError:
                mode = 0o644
            temporary = f".{leaf}.{secrets.token_hex(6)}.tmp"
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            handle = os.open(temporary, flags, 0o600, dir_fd=parent)
            try:
                with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                    stream.write(text)
                    os.fchmod(stream.fileno(), mode)
                os.replace(temporary, leaf, src_dir_fd=parent, dst_dir_fd=parent)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary, dir_fd=parent)
                raise
        finally:
            os.close(parent)

    def kind(self, name: str) -> str:
        """What stands at `name`: "file" (a regular file reached without a symbolic link on the
        way), "missing" (nothing, and no link on the way), or "other" (a link, a folder, a link on
        the way, anything else)."""
        try:
            parent, leaf = self._parent(name, create=False)
        except FileNotFoundError:
            return "missing"
        except (OSError, ValueError):
            return "other"
        try:
            mode = os.stat(leaf, dir_fd=parent, follow_symlinks=False).st_mode
        except FileNotFoundError:
            return "missing"
        except OSError:
            return "other"
        finally:
            os.close(parent)
        return "file" if stat.S_ISREG(mode) else "other"

    def read(self, name: str) -> bytes | None:
        """The bytes of the plain file `name` (no link followed), or None when there is none."""
        try:
            parent, leaf = self._parent(name, create=False)
        except (OSError, ValueError):
            return None
        try:
            # O_NONBLOCK: a FIFO standing there answers at once instead of holding the command.
            flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
            handle = os.open(leaf, flags, dir_fd=parent)
        except OSError:
            return None
        finally:
            os.close(parent)
        with os.fdopen(handle, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return None
            return stream.read()

    def remove(self, name: str) -> bool:
        """Delete `name` when it is a plain file reached without a link; whether it was deleted."""
        try:
            parent, leaf = self._parent(name, create=False)
        except (OSError, ValueError):
            return False
        try:
            if not stat.S_ISREG(os.stat(leaf, dir_fd=parent, follow_symlinks=False).st_mode):
                return False
            os.unlink(leaf, dir_fd=parent)
            return True
        except OSError:
            return False
        finally:
            os.close(parent)


def remove_file(folder: Path, name: str) -> bool:
    """Delete the plain file `name` of `folder` (no link followed on the way); whether it was."""
    with Folder.open(folder) as opened:
        return opened.remove(name)


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    """Write `files` (relative `/` name -> text) into `folder`, never through a symbolic link."""
    with Folder.open(folder) as opened:
        opened.make_folders(files)
        for name, text in files.items():
            opened.write(name, text)
