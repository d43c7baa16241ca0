"""The git checkout the command runs in: its top folder and its `origin` remote (read by git, no network).

Every function answers None when there is no checkout, no git, or no such setting, so callers
decide what that means for them.
"""

from __future__ import annotations

from pathlib import Path

_GIT_TIMEOUT = 10.0


def _git(cwd: Path, *arguments: str, timeout: float = _GIT_TIMEOUT) -> str | None:
    """The output of one read-only git command in `cwd` as it printed it, or None when it fails."""
    import subprocess  # here, not at start: `--help` runs no git

    try:
        result = subprocess.run(
            # core.fsmonitor names a program git would run on `ls-files` and `status`: a checkout
            # (its .git/config) chooses it, so it is switched off.
            ["git", "-c", "core.fsmonitor=false", "-C", str(cwd), *arguments],
            capture_output=True,
            check=False,
            timeout=timeout,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if result.returncode != 0:
        return None
    return result.stdout.decode("utf-8", "surrogateescape")


def _setting(cwd: Path, *arguments: str) -> str | None:
    text = (_git(cwd, *arguments) or "").strip()
    return text or None


def top_folder(cwd: Path | None = None) -> Path | None:
    """The top folder of the checkout holding `cwd` (`git rev-parse --show-toplevel`), or None."""
    found = _setting(cwd or Path.cwd(), "rev-parse", "--show-toplevel")
    return Path(found) if found else None


def link_on_the_way(root: Path, relative: str) -> str | None:
    """The first part of `root / relative` below `root` that is a symbolic link, shown relative, or None.

    With no link on the way and no `..` part (assistant.config_keys.is_repository_path), the path
    stays inside the checkout whatever the links above `root` are.
    """
    current, shown = root, Path()
    for part in Path(relative).parts:
        current, shown = current / part, shown / part
        if current.is_symlink():
            return str(shown)
    return None


def origin_url(cwd: Path | None = None) -> str | None:
    """The URL of the checkout's `origin` remote (`git config --get remote.origin.url`), or None."""
    return _setting(cwd or Path.cwd(), "config", "--get", "remote.origin.url")


def tracked_files(cwd: Path) -> list[str] | None:
    """Every file git tracks in the checkout holding `cwd`, `/`-separated from its top, or None.

    Listing a large repository takes longer than a setting: it gets a minute, not seconds.
    """
    listed = _git(cwd, "ls-files", "-z", "--full-name", ":/", timeout=60.0)
    return None if listed is None else [path for path in listed.split("\0") if path]
