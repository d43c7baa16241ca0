"""The git checkout the command runs in: its top folder and its `origin` remote (read by git, no network).

Every function answers None when there is no checkout, no git, or no such setting, so callers
decide what that means for them.
"""

from __future__ import annotations

from pathlib import Path

_GIT_TIMEOUT = 10.0


def _git(cwd: Path, *arguments: str) -> str | None:
    """The stripped output of one read-only git command in `cwd`, or None when it fails."""
    import subprocess  # here, not at start: `--help` runs no git

    try:
        result = subprocess.run(
            ["git", "-C", str(cwd), *arguments],
            capture_output=True,
            check=False,
            timeout=_GIT_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    text = result.stdout.decode("utf-8", "surrogateescape").strip()
    return text or None


def top_folder(cwd: Path | None = None) -> Path | None:
    """The top folder of the checkout holding `cwd` (`git rev-parse --show-toplevel`), or None."""
    found = _git(cwd or Path.cwd(), "rev-parse", "--show-toplevel")
    return Path(found) if found else None


def origin_url(cwd: Path | None = None) -> str | None:
    """The URL of the checkout's `origin` remote (`git config --get remote.origin.url`), or None."""
    return _git(cwd or Path.cwd(), "config", "--get", "remote.origin.url")
