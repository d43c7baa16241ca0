"""The one way a file is written: all at once, so a failure leaves the old file as it was."""

from __future__ import annotations

import os
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
