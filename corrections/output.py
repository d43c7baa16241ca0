"""Writing the context folder: every file replaced atomically, so no run leaves half a file.

The issues/ folder is built beside the old one and swapped in whole, so it never mixes runs.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` in one step (temporary file in the same folder, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_folder(path: Path, files: Mapping[str, str]) -> None:
    """Replace the folder `path` with exactly `files` (name -> text)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))
    try:
        for name, text in files.items():
            (fresh / name).write_text(text, encoding="utf-8", newline="\n")
        old = path.with_name(f".{path.name}.old")
        if old.exists():
            shutil.rmtree(old)
        if path.exists():
            os.replace(path, old)
        os.replace(fresh, path)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
