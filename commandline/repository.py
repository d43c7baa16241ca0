"""OWNER/NAME of a GitHub repository: from `--repo`, or from the checkout's `origin` as gh does.

The one parser of OWNER/NAME for every command. Owner names follow GitHub's rules for logins
(letters, digits, single hyphens, at most 39 characters); repository names are letters, digits,
`.`, `_` and `-`, at most 100 characters:
https://docs.github.com/en/repositories/creating-and-managing-repositories/creating-a-new-repository
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from commandline.checkout import origin_url

_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
_NAME = r"[A-Za-z0-9._-]{1,100}"
_REPOSITORY = re.compile(rf"^({_OWNER})/({_NAME})$")
# scp-like ssh: `git@github.com:owner/name.git` (no scheme, a colon before the path).
_SCP = re.compile(r"^(?:[^@/\s]+@)?(?P<host>[^:/\s]+):(?P<path>[^\s]+)$")
_USER_INFO = re.compile(r"://[^@/]*@")
GITHUB_HOSTS = frozenset({"github.com", "www.github.com", "ssh.github.com"})


class RepositoryError(ValueError):
    """No usable OWNER/NAME; the message is one line that says what to do."""


@dataclass(frozen=True)
class Repository:
    """A repository on GitHub."""

    owner: str
    name: str

    def __str__(self) -> str:
        return f"{self.owner}/{self.name}"


def parse_repository(value: str) -> Repository:
    """OWNER/NAME as typed; raises RepositoryError for anything else."""
    match = _REPOSITORY.match(value.strip())
    if match is None or match.group(2) in {".", ".."}:
        raise RepositoryError(f"--repo: expected OWNER/NAME, got {value!r}")
    return Repository(match.group(1), match.group(2))


def repository_of_url(url: str) -> Repository | None:
    """The GitHub repository a remote URL points at, or None when it is not on GitHub.

    Accepts https (with or without user info), ssh://, git:// and the scp-like
    `git@github.com:OWNER/NAME.git`, with or without `.git` and a trailing slash.
    """
    url = url.strip()
    if "://" in url:
        parts = urlsplit(url)
        host, path = (parts.hostname or ""), parts.path
    else:
        scp = _SCP.match(url)
        if scp is None:
            return None
        host, path = scp.group("host"), scp.group("path")
    if host.casefold() not in GITHUB_HOSTS:
        return None
    path = path.strip("/").removesuffix(".git")
    try:
        return parse_repository(path)
    except RepositoryError:
        return None


def resolve_repository(value: str | None, cwd: Path | None = None) -> Repository:
    """`--repo` when given, else the repository of the checkout's `origin` on GitHub.

    Raises RepositoryError with one line naming what was found and what to pass instead.
    """
    if value is not None:
        return parse_repository(value)
    url = origin_url(cwd)
    if url is None:
        raise RepositoryError(
            "--repo OWNER/NAME is needed: this folder is not a git checkout with an `origin` remote"
        )
    found = repository_of_url(url)
    if found is None:
        raise RepositoryError(
            f"--repo OWNER/NAME is needed: the `origin` remote of this checkout ({_shown(url)}) "
            "is not on GitHub"
        )
    return found


def _shown(url: str) -> str:
    """The URL without user info: an https remote may carry a token (`https://TOKEN@host/...`)."""
    return _USER_INFO.sub("://", url)
