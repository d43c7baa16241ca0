"""OWNER/NAME from --repo or from the checkout's origin remote, as gh finds it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from commandline.repository import (
    Repository,
    RepositoryError,
    parse_repository,
    repository_of_url,
    resolve_repository,
)


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/octo/demo",
        "https://github.com/octo/demo.git",
        "https://github.com/octo/demo/",
        "https://x-access-token:ghs_secret@github.com/octo/demo.git",
        "http://github.com/octo/demo",
        "git@github.com:octo/demo.git",
        "git@github.com:octo/demo",
        "ssh://git@github.com/octo/demo.git",
        "ssh://git@github.com:22/octo/demo",
        "ssh://git@ssh.github.com:443/octo/demo.git",
        "git://github.com/octo/demo.git",
        "https://GitHub.com/octo/demo.git",
    ],
)
def test_github_remotes_name_the_repository(url: str) -> None:
    assert repository_of_url(url) == Repository("octo", "demo")


@pytest.mark.parametrize(
    "url",
    [
        "https://gitlab.com/octo/demo.git",
        "git@gitlab.com:octo/demo.git",
        "https://github.com/octo",
        "https://github.com/octo/demo/tree/main",
        "/srv/git/demo.git",
        "../demo",
        "https://github.com.evil.example/octo/demo",
    ],
)
def test_other_remotes_name_none(url: str) -> None:
    assert repository_of_url(url) is None


def test_a_repository_name_may_hold_dots() -> None:
    assert repository_of_url("git@github.com:octo/demo.js.git") == Repository("octo", "demo.js")
    assert parse_repository("octo/demo.js") == Repository("octo", "demo.js")


@pytest.mark.parametrize("value", ["octo", "octo/demo/x", "-octo/demo", "octo/", "/demo", "octo/.."])
def test_parse_refuses_what_is_not_owner_slash_name(value: str) -> None:
    with pytest.raises(RepositoryError, match="expected OWNER/NAME"):
        parse_repository(value)


def _checkout(folder: Path, origin: str | None) -> Path:
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    if origin is not None:
        subprocess.run(["git", "-C", str(folder), "remote", "add", "origin", origin], check=True)
    (folder / "src" / "deep").mkdir(parents=True)
    return folder / "src" / "deep"


def test_resolve_reads_the_origin_from_a_subfolder(tmp_path: Path) -> None:
    inner = _checkout(tmp_path, "git@github.com:octo/demo.git")
    assert resolve_repository(None, inner) == Repository("octo", "demo")
    assert resolve_repository("other/repo", inner) == Repository("other", "repo")


def test_resolve_without_origin_says_what_to_pass(tmp_path: Path) -> None:
    inner = _checkout(tmp_path, None)
    with pytest.raises(RepositoryError, match=r"^--repo OWNER/NAME is needed: .*no.*`origin` remote"):
        resolve_repository(None, inner)


def test_resolve_with_a_foreign_origin_names_it_without_its_credentials(tmp_path: Path) -> None:
    inner = _checkout(tmp_path, "https://user:s3cret@gitlab.com/octo/demo.git")
    with pytest.raises(RepositoryError) as caught:
        resolve_repository(None, inner)
    message = str(caught.value)
    assert "https://gitlab.com/octo/demo.git" in message and "not on GitHub" in message
    assert "s3cret" not in message
